import { describe, expect, it } from "vitest";
import { parseEventLogs, zeroAddress, type Account, type Address } from "viem";
import { rewardManagerAbi, sparkErrorsAbi, tradingAbi } from "../../contracts/generated/abi";
import { CLAIM_KIND, encodeClaimContent, signClaim, type ClaimFields, type SignedClaim } from "../../contracts/claim";
import { REWARD_BNB_GRANT, TREASURY_GRANT } from "../../contracts/deploy";
import { DEMO_BROWSER_ACCOUNT, DEV_CLAIM_SIGNER_KEY } from "~core/demo";

import { tokenBalanceOf, claimOf, claimStatus, freshPlayer, revertOf, submitClaim, type TestChain, setUpTestChain } from "./harness";

const managerAbi = [...rewardManagerAbi, ...sparkErrorsAbi] as const;

let t: TestChain;
let c: TestChain["deployment"]["contracts"];

setUpTestChain((chain) => ([t, c] = [chain, chain.deployment.contracts]));

/** An award of 12.345678901234567891 USDT to `account`, valid for ten minutes of chain time, unless overridden. */
const award = (account: Account, overrides: Partial<ClaimFields> = {}) =>
  claimOf(
    t,
    account,
    { kind: CLAIM_KIND.token, asset: c.usdt, idOrAmount: 12_345_678_901_234_567_891n, data: 0n, assetManager: c.rewardManager },
    overrides,
  );

const submit = (account: Account, signed: SignedClaim, submitter?: Account) => submitClaim(t, "awardClaim", account, signed, submitter);

const usdtOf = (address: Address) => tokenBalanceOf(t, c.usdt, address);

const status = (account: Account, claimNonce: bigint) => claimStatus(t, c.rewardManager, account, claimNonce);

describe("reward manager", () => {
  it("is funded, signed for by the claim signer, and takes Trading's fee", async () => {
    expect(await usdtOf(c.rewardManager)).toBe(TREASURY_GRANT);
    expect(await t.publicClient.getBalance({ address: c.rewardManager })).toBe(REWARD_BNB_GRANT);
    expect(await t.publicClient.readContract({ address: c.rewardManager, abi: rewardManagerAbi, functionName: "awardSigner" })).toBe(
      t.deployment.accounts.claimSigner,
    );
    expect(await t.publicClient.readContract({ address: c.trading, abi: tradingAbi, functionName: "feeRecipient" })).toBe(c.rewardManager);
  });

  it("pays an award to its account exactly to the wei, once, whoever submits it", async () => {
    const player = freshPlayer(3);
    const fields = await award(player);
    const signed = await signClaim(fields, DEV_CLAIM_SIGNER_KEY);
    const before = await usdtOf(c.rewardManager);
    expect(await status(player, fields.nonce)).toBe(0);

    const receipt = await t.mined(submit(player, signed, freshPlayer(4)));
    expect(parseEventLogs({ abi: rewardManagerAbi, logs: receipt.logs, eventName: "AwardClaimed" })[0]?.args).toEqual({
      account: player.address,
      nonce: fields.nonce,
      token: c.usdt,
      amount: 12_345_678_901_234_567_891n,
    });
    expect(await usdtOf(player.address)).toBe(12_345_678_901_234_567_891n);
    expect(await usdtOf(c.rewardManager)).toBe(before - 12_345_678_901_234_567_891n);
    expect(await usdtOf(freshPlayer(4).address)).toBe(0n);
    expect(await status(player, fields.nonce)).toBe(1);

    // Replayed: refused, and nothing moves.
    expect(await revertOf(submit(player, signed))).toEqual({ name: "ClaimAlreadyUsed", args: [player.address, fields.nonce] });
    expect(await usdtOf(player.address)).toBe(12_345_678_901_234_567_891n);
  });

  it("pays a BNB award in the native coin", async () => {
    const player = freshPlayer(6);
    const fields = await award(player, { asset: zeroAddress, idOrAmount: 3n * 10n ** 15n + 7n });
    const before = await t.publicClient.getBalance({ address: player.address });
    // Submitted by someone else, so the player's balance moves by the award alone, not by gas.
    await t.mined(submit(player, await signClaim(fields, DEV_CLAIM_SIGNER_KEY), freshPlayer(7)));
    expect(await t.publicClient.getBalance({ address: player.address })).toBe(before + 3n * 10n ** 15n + 7n);
  });

  it("refuses an award past its deadline for good: the game may give it back once the chain is read past it", async () => {
    const player = freshPlayer(5);
    const fields = await award(player, { deadline: (await t.publicClient.getBlock()).timestamp + 60n });
    const signed = await signClaim(fields, DEV_CLAIM_SIGNER_KEY);
    await t.advanceTime(61);
    expect(await revertOf(submit(player, signed))).toEqual({ name: "ClaimExpired", args: [fields.deadline] });
    // Later blocks only move further past it, so the unpaid award stays unpaid.
    await t.advanceTime(3600);
    expect(await revertOf(submit(player, signed))).toEqual({ name: "ClaimExpired", args: [fields.deadline] });
    expect(await status(player, fields.nonce)).toBe(0);
    expect(await usdtOf(player.address)).toBe(0n);
  });

  it("refuses an award made out to another account, contract, chain, kind or signer", async () => {
    const player = freshPlayer(5);
    const someoneElses = await signClaim(await award(freshPlayer(7)), DEV_CLAIM_SIGNER_KEY);
    expect(await revertOf(submit(player, someoneElses))).toEqual({
      name: "ClaimAccountMismatch",
      args: [freshPlayer(7).address, player.address],
    });

    // An asset manager claim is not an award, nor the other way round.
    const assetClaim = await signClaim(await award(player, { assetManager: c.assetManager }), DEV_CLAIM_SIGNER_KEY);
    expect(await revertOf(submit(player, assetClaim))).toEqual({ name: "ClaimWrongContract", args: [c.assetManager] });

    const otherChain = await signClaim(await award(player, { chainId: 56n }), DEV_CLAIM_SIGNER_KEY);
    expect(await revertOf(submit(player, otherChain))).toEqual({ name: "ClaimWrongChain", args: [56n] });

    const nftKind = await signClaim(await award(player, { kind: CLAIM_KIND.nft }), DEV_CLAIM_SIGNER_KEY);
    expect(await revertOf(submit(player, nftKind))).toEqual({ name: "WrongClaimKind", args: [CLAIM_KIND.nft] });

    const forged = await signClaim(await award(player), DEMO_BROWSER_ACCOUNT.privateKey);
    expect(await revertOf(submit(player, forged))).toEqual({ name: "InvalidClaimSigner", args: [DEMO_BROWSER_ACCOUNT.wallet] });

    const valid = await signClaim(await award(player), DEV_CLAIM_SIGNER_KEY);
    const tampered = { ...valid, claim_content: encodeClaimContent({ ...(await award(player)), idOrAmount: TREASURY_GRANT }) };
    expect((await revertOf(submit(player, tampered))).name).toBe("InvalidClaimSigner");

    expect(await usdtOf(player.address)).toBe(0n);
  });

  it("lets only the owner take takings out", async () => {
    const outsider = freshPlayer(4);
    const take = (account: Account) =>
      t.walletFor(account).writeContract({
        address: c.rewardManager,
        abi: managerAbi,
        functionName: "withdraw",
        args: [c.usdt, account.address, 1n],
      });
    expect((await revertOf(take(outsider))).name).toBe("OwnableUnauthorizedAccount");
  });
});

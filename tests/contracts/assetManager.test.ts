import { describe, expect, it } from "vitest";
import { parseEventLogs, type Account, type Hex } from "viem";
import { assetManagerAbi, gameTokenAbi, sparkCardAbi, sparkErrorsAbi, tradingAbi } from "../../contracts/generated/abi";
import { CLAIM_KIND, encodeClaimContent, signClaim, type ClaimFields, type SignedClaim } from "../../contracts/claim";
import { TREASURY_GRANT } from "../../contracts/deploy";
import { DEMO_BROWSER_ACCOUNT, DEV_CLAIM_SIGNER_KEY } from "~core/demo";
import { GAME_TOKEN_ID_BASE } from "~core/constants";
import { encodeItem } from "~core/item-data";
import {
  tokenBalanceOf,
  claimOf,
  claimStatus,
  freshPlayer,
  nextClaimNonce,
  revertOf,
  submitClaim,
  swapRecord,
  type TestChain,
  setUpTestChain,
} from "./harness";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const managerAbi = [...assetManagerAbi, ...sparkErrorsAbi] as const;

let t: TestChain;
let c: TestChain["deployment"]["contracts"];

setUpTestChain((chain) => ([t, c] = [chain, chain.deployment.contracts]));

const claimFields = (account: Account, overrides: Partial<ClaimFields> = {}) =>
  claimOf(t, account, { kind: CLAIM_KIND.token, asset: c.fire, idOrAmount: 25n * WEI, data: 0n, assetManager: c.assetManager }, overrides);

const submit = (functionName: "claimToken" | "claimNft", account: Account, signed: SignedClaim, submitter?: Account) =>
  submitClaim(t, functionName, account, signed, submitter);

const fireBalance = (address: Hex) => tokenBalanceOf(t, c.fire, address);

const statusOf = (account: Account, claimNonce: bigint) => claimStatus(t, c.assetManager, account, claimNonce);

describe("claims from the game", () => {
  it("is seeded with a treasury and custody items", async () => {
    expect(await fireBalance(c.assetManager)).toBe(TREASURY_GRANT);
    for (const { tokenId } of t.deployment.seed.custodyNfts) {
      const owner = await t.publicClient.readContract({
        address: c.card,
        abi: sparkCardAbi,
        functionName: "ownerOf",
        args: [BigInt(tokenId)],
      });
      expect(owner).toBe(c.assetManager);
    }
    expect(await t.publicClient.readContract({ address: c.assetManager, abi: assetManagerAbi, functionName: "claimSigner" })).toBe(
      t.deployment.accounts.claimSigner,
    );
  });

  it("pays a valid token claim exactly once, whoever submits it", async () => {
    const player = freshPlayer(3);
    const fields = await claimFields(player);
    const signed = await signClaim(fields, DEV_CLAIM_SIGNER_KEY);
    expect(signed.claim_content).toBe(encodeClaimContent(fields));
    expect(signed.claim_content).toHaveLength(2 + 288 * 2);
    expect(await statusOf(player, fields.nonce)).toBe(0);

    const receipt = await t.mined(submit("claimToken", player, signed, freshPlayer(4)));
    expect(parseEventLogs({ abi: assetManagerAbi, logs: receipt.logs, eventName: "Claimed" })[0]?.args).toEqual({
      account: player.address,
      nonce: fields.nonce,
      asset: c.fire,
      kind: CLAIM_KIND.token,
      idOrAmount: 25n * WEI,
    });
    expect(await fireBalance(player.address)).toBe(25n * WEI);
    expect(await statusOf(player, fields.nonce)).toBe(1);

    expect(await revertOf(submit("claimToken", player, signed))).toEqual({
      name: "ClaimAlreadyUsed",
      args: [player.address, fields.nonce],
    });
    expect(await fireBalance(player.address)).toBe(25n * WEI);
  });

  it("refuses expired, wrong-signer, wrong-chain, wrong-contract, wrong-account and wrong-kind claims", async () => {
    const player = freshPlayer(5);
    const now = (await t.publicClient.getBlock()).timestamp;
    const expired = await claimFields(player, { deadline: now - 1n });
    expect(await revertOf(submit("claimToken", player, await signClaim(expired, DEV_CLAIM_SIGNER_KEY)))).toEqual({
      name: "ClaimExpired",
      args: [now - 1n],
    });

    const forged = await signClaim(await claimFields(player), DEMO_BROWSER_ACCOUNT.privateKey);
    expect(await revertOf(submit("claimToken", player, forged))).toEqual({
      name: "InvalidClaimSigner",
      args: [DEMO_BROWSER_ACCOUNT.wallet],
    });

    const otherChain = await signClaim(await claimFields(player, { chainId: 56n }), DEV_CLAIM_SIGNER_KEY);
    expect(await revertOf(submit("claimToken", player, otherChain))).toEqual({ name: "ClaimWrongChain", args: [56n] });

    const otherManager = await signClaim(await claimFields(player, { assetManager: c.boxSale }), DEV_CLAIM_SIGNER_KEY);
    expect(await revertOf(submit("claimToken", player, otherManager))).toEqual({
      name: "ClaimWrongContract",
      args: [c.boxSale],
    });

    const someoneElses = await signClaim(await claimFields(freshPlayer(6)), DEV_CLAIM_SIGNER_KEY);
    expect((await revertOf(submit("claimToken", player, someoneElses))).name).toBe("ClaimAccountMismatch");

    const tokenClaim = await signClaim(await claimFields(player), DEV_CLAIM_SIGNER_KEY);
    expect(await revertOf(submit("claimNft", player, tokenClaim))).toEqual({ name: "WrongClaimKind", args: [0] });

    // A valid signature over different content proves nothing.
    const tampered = { ...tokenClaim, claim_content: encodeClaimContent({ ...(await claimFields(player)), idOrAmount: 10n ** 24n }) };
    expect((await revertOf(submit("claimToken", player, tampered))).name).toBe("InvalidClaimSigner");

    const truncated = { ...tokenClaim, claim_content: tokenClaim.claim_content.slice(0, -64) as Hex };
    expect(await revertOf(submit("claimToken", player, truncated))).toEqual({ name: "MalformedClaim", args: [256n] });

    expect(await fireBalance(player.address)).toBe(0n);
  });

  it("hands out a custody NFT once", async () => {
    const player = freshPlayer(6);
    const [custody] = t.deployment.seed.custodyNfts;
    const tokenId = BigInt(custody!.tokenId);
    const fields = await claimFields(player, { kind: CLAIM_KIND.nft, asset: c.card, idOrAmount: tokenId });
    await t.mined(submit("claimNft", player, await signClaim(fields, DEV_CLAIM_SIGNER_KEY)));
    expect(await t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "ownerOf", args: [tokenId] })).toBe(
      player.address,
    );

    const again = await signClaim({ ...fields, nonce: nextClaimNonce() }, DEV_CLAIM_SIGNER_KEY);
    expect(await revertOf(submit("claimNft", player, again))).toEqual({ name: "NftNotInCustody", args: [c.card, tokenId] });
  });
});

describe("a game item's first claim mints it", () => {
  const GAME_ID = BigInt(GAME_TOKEN_ID_BASE) + 77n;
  const word = encodeItem.spaceship({ shipType: 3, level: 2, stats: [10, 20, 30, 40, 50, 60, 70] });

  it("mints the item with the game's id and attributes to the claimant, once", async () => {
    const player = freshPlayer(5);
    const fields = await claimFields(player, { kind: CLAIM_KIND.nft, asset: c.card, idOrAmount: GAME_ID, data: word });
    const receipt = await t.mined(submit("claimNft", player, await signClaim(fields, DEV_CLAIM_SIGNER_KEY)));
    expect(parseEventLogs({ abi: assetManagerAbi, logs: receipt.logs, eventName: "Claimed" })[0]?.args).toMatchObject({
      account: player.address,
      nonce: fields.nonce,
      asset: c.card,
      kind: CLAIM_KIND.nft,
      idOrAmount: GAME_ID,
    });
    const read = (functionName: "ownerOf" | "dataOf") =>
      t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName, args: [GAME_ID] });
    expect(await read("ownerOf")).toBe(player.address);
    expect(await read("dataOf")).toBe(word);
    expect(await revertOf(submit("claimNft", player, await signClaim(fields, DEV_CLAIM_SIGNER_KEY)))).toEqual({
      name: "ClaimAlreadyUsed",
      args: [player.address, fields.nonce],
    });
    // A second signed claim of the same item finds it minted and not in custody.
    const again = await signClaim({ ...fields, nonce: nextClaimNonce() }, DEV_CLAIM_SIGNER_KEY);
    expect(await revertOf(submit("claimNft", player, again))).toEqual({ name: "NftNotInCustody", args: [c.card, GAME_ID] });
  });

  it("refuses an expired claim of a game item, and mints game ids only for the asset manager", async () => {
    const player = freshPlayer(5);
    const now = (await t.publicClient.getBlock()).timestamp;
    const expired = await claimFields(player, {
      kind: CLAIM_KIND.nft,
      asset: c.card,
      idOrAmount: GAME_ID + 1n,
      data: word,
      deadline: now - 1n,
    });
    expect((await revertOf(submit("claimNft", player, await signClaim(expired, DEV_CLAIM_SIGNER_KEY)))).name).toBe("ClaimExpired");
    const direct = t.deployer.writeContract({
      address: c.card,
      abi: sparkCardAbi,
      functionName: "mintGameItem",
      args: [player.address, GAME_ID + 2n, word],
    });
    expect((await revertOf(direct)).name).toBe("AccessControlUnauthorizedAccount");
    expect(await t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "GAME_TOKEN_ID_BASE" })).toBe(
      BigInt(GAME_TOKEN_ID_BASE),
    );
  });

  it("never mints below the game's id range, where the collection's own ids live", async () => {
    const player = freshPlayer(5);
    const fields = await claimFields(player, { kind: CLAIM_KIND.nft, asset: c.card, idOrAmount: 999_999n, data: word });
    expect(await revertOf(submit("claimNft", player, await signClaim(fields, DEV_CLAIM_SIGNER_KEY)))).toEqual({
      name: "NotAGameId",
      args: [999_999n],
    });
  });
});

describe("swaps into the game", () => {
  it("takes supported tokens and NFTs into custody and records SwappedToGame", async () => {
    const player = freshPlayer(7);
    const wallet = t.walletFor(player);
    await t.mined(
      t.deployer.writeContract({ address: c.fire, abi: gameTokenAbi, functionName: "mint", args: [player.address, 50n * WEI] }),
    );
    await t.mined(wallet.writeContract({ address: c.fire, abi: gameTokenAbi, functionName: "approve", args: [c.assetManager, 50n * WEI] }));

    const tokenSwap = await t.mined(
      wallet.writeContract({ address: c.assetManager, abi: managerAbi, functionName: "swapTokenToGame", args: [c.fire, 40n * WEI, 1n] }),
    );
    const [tokenEvent] = parseEventLogs({ abi: assetManagerAbi, logs: tokenSwap.logs, eventName: "SwappedToGame" });
    expect(tokenEvent?.args).toMatchObject({
      account: player.address,
      asset: c.fire,
      kind: CLAIM_KIND.token,
      idOrAmount: 40n * WEI,
      gameTag: 1n,
    });
    expect(await fireBalance(player.address)).toBe(10n * WEI);

    // Claim a custody card, then swap it back into the game.
    const [, custody] = t.deployment.seed.custodyNfts;
    const tokenId = BigInt(custody!.tokenId);
    const fields = await claimFields(player, { kind: CLAIM_KIND.nft, asset: c.card, idOrAmount: tokenId });
    await t.mined(submit("claimNft", player, await signClaim(fields, DEV_CLAIM_SIGNER_KEY)));
    await t.mined(wallet.writeContract({ address: c.card, abi: sparkCardAbi, functionName: "approve", args: [c.assetManager, tokenId] }));
    const nftSwap = await t.mined(
      wallet.writeContract({ address: c.assetManager, abi: managerAbi, functionName: "swapNftToGame", args: [c.card, tokenId, 1n] }),
    );
    const [nftEvent] = parseEventLogs({ abi: assetManagerAbi, logs: nftSwap.logs, eventName: "SwappedToGame" });
    expect(nftEvent?.args).toMatchObject({ swapId: tokenEvent!.args.swapId + 1n, kind: CLAIM_KIND.nft, idOrAmount: tokenId });
    expect(await t.publicClient.readContract({ address: c.card, abi: sparkCardAbi, functionName: "ownerOf", args: [tokenId] })).toBe(
      c.assetManager,
    );
    const recorded = await swapRecord(t, nftEvent!.args.swapId);
    expect(recorded).toMatchObject({ account: player.address, kind: CLAIM_KIND.nft, asset: c.card, idOrAmount: tokenId, gameTag: 1n });
  });

  it("refuses unsupported assets, zero amounts, NFTs the caller does not own and unknown swap ids", async () => {
    const wallet = t.walletFor(freshPlayer(7));
    const swapToken = (token: Hex, amount: bigint) =>
      wallet.writeContract({ address: c.assetManager, abi: managerAbi, functionName: "swapTokenToGame", args: [token, amount, 1n] });
    expect(await revertOf(swapToken(c.boxSale, 1n))).toEqual({ name: "UnsupportedAsset", args: [c.boxSale] });
    expect(await revertOf(swapToken(c.fire, 0n))).toEqual({ name: "ZeroAmount", args: [] });
    const [, , third] = t.deployment.seed.custodyNfts;
    const notMine = wallet.writeContract({
      address: c.assetManager,
      abi: managerAbi,
      functionName: "swapNftToGame",
      args: [c.card, BigInt(third!.tokenId), 1n],
    });
    expect((await revertOf(notMine)).name).toBe("ERC721IncorrectOwner");
    const unknown = t.publicClient.readContract({ address: c.assetManager, abi: assetManagerAbi, functionName: "querySwap", args: [999n] });
    expect(await revertOf(unknown)).toEqual({ name: "UnknownSwap", args: [999n] });
  });

  it("takes a token only by the token path and an NFT only by the NFT paths (issue 43: transferFrom's selector is the same)", async () => {
    const player = freshPlayer(6);
    const wallet = t.walletFor(player);
    await t.mined(t.deployer.writeContract({ address: c.fire, abi: gameTokenAbi, functionName: "mint", args: [player.address, 5n * WEI] }));
    // The allowances a chain offer or a swap would have left.
    for (const spender of [c.assetManager, c.trading]) {
      await t.mined(wallet.writeContract({ address: c.fire, abi: gameTokenAbi, functionName: "approve", args: [spender, 5n * WEI] }));
    }
    const before = await fireBalance(player.address);
    const asNft = wallet.writeContract({
      address: c.assetManager,
      abi: managerAbi,
      functionName: "swapNftToGame",
      args: [c.fire, WEI, 1n],
    });
    expect(await revertOf(asNft)).toEqual({ name: "UnsupportedAsset", args: [c.fire] });
    const sent = wallet.writeContract({
      address: c.trading,
      abi: [...tradingAbi, ...sparkErrorsAbi],
      functionName: "sendNft",
      args: [c.fire, WEI, player.address],
    });
    expect(await revertOf(sent)).toEqual({ name: "UnsupportedAsset", args: [c.fire] });
    expect(
      await revertOf(
        wallet.writeContract({ address: c.assetManager, abi: managerAbi, functionName: "swapItem1155ToGame", args: [c.fire, 1n, WEI, 1n] }),
      ),
    ).toEqual({ name: "UnsupportedAsset", args: [c.fire] });
    expect(await fireBalance(player.address)).toBe(before);
    // And a card by the token path.
    const asToken = wallet.writeContract({
      address: c.assetManager,
      abi: managerAbi,
      functionName: "swapTokenToGame",
      args: [c.card, 1n, 1n],
    });
    expect(await revertOf(asToken)).toEqual({ name: "UnsupportedAsset", args: [c.card] });
  });
});

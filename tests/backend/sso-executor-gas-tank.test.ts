/**
 * Issue 46 (decision 0038): a managed wallet without BNB acts on chain with the gas tank's BNB, paying the network
 * fee in a token. The fee quoted is the fee taken, to the wei; the wallet's BNB stays what it was; the tank ends
 * poorer by exactly the gas its sponsorship burned. The budgets hold, also for two confirmations at once, and a dry
 * tank refuses in words before anything is queued, and holds a queued action until it is refilled.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Address, Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { fireStakingAbi, gameTokenAbi } from "../../contracts/generated/abi";
import type { Execution, GasQuote } from "~core/api/actions";
import { DEV_GAS_FEE_RATES } from "~core/demo";
import type { SignedClaim } from "../../backend/market/claims/claims";
import { MarketDb } from "../../backend/market/shared/db";
import { creditGameBalance } from "../../backend/market/shared/ledger";
import { actionBudgetSpent, feeWei } from "../../backend/sso/executor/gas-tank";
import { startTestChain, type TestChain } from "../contracts/harness";
import { type ExecutorBackend, managedPlayer, newKey, postAction, settled, startExecutorBackends } from "./sso-executor-helpers";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const ACTIONS_A_DAY = 2;

let t: TestChain;
let b: ExecutorBackend;
let c: TestChain["deployment"]["contracts"];
const tankKey: Hex = generatePrivateKey();
const tank = privateKeyToAccount(tankKey).address;

const deposit = (fire: bigint) => ({
  action: "staking.deposit" as const,
  params: { poolId: 1, amount: (fire * WEI).toString() },
  idempotencyKey: newKey(),
});
const bnbOf = (address: Address) => t.publicClient.getBalance({ address });
const fireOf = (address: Address) =>
  t.publicClient.readContract({ address: c.fire, abi: gameTokenAbi, functionName: "balanceOf", args: [address] });
const usdtOf = (address: Address) =>
  t.publicClient.readContract({ address: c.usdt, abi: gameTokenAbi, functionName: "balanceOf", args: [address] });

/** Posts the action and expects the fee to review, not an execution. */
async function review(token: string, request: ReturnType<typeof deposit>): Promise<GasQuote> {
  const answer = await postAction(b, token, request);
  expect(answer.status, answer.msg).toBe(200);
  const { review: quote } = answer.data as unknown as { review: GasQuote };
  expect(quote, JSON.stringify(answer.data)).toBeDefined();
  return quote;
}
/**
 * Submits a signed claim for a wallet with neither BNB nor tokens and confirms its fee, quoted in `feeToken`: the fee
 * step follows the claim in the one execution, which is mined. Returns the quote.
 */
async function claimPayingItsFee(token: string, action: "bridge.claim" | "reward.claim", claim: SignedClaim, feeToken: string) {
  const { claim_content, v, r, s } = claim;
  const answer = await postAction(b, token, { action, params: { claim_content, v, r, s }, idempotencyKey: newKey() });
  const quote = (answer.data as unknown as { review: GasQuote }).review;
  expect(quote).toMatchObject({ token: feeToken, spends: "0" });
  const confirmed = await confirm(token, quote.id);
  expect(confirmed.status, confirmed.msg).toBe(200);
  const execution = await settled(b, token, confirmed.data.id);
  expect(execution.status, execution.error ?? "").toBe("mined");
  expect(execution.steps.map((step) => step.kind)).toEqual(["gas-topup", "claim", "gas-fee", "gas-refund"]);
  return quote;
}

const confirm = (token: string, quoteId: string) => b.call<Execution>("POST", `/sso/actions/quotes/${quoteId}/confirm`, {}, token);

/** Every gas this execution's transactions burned, the tank's own transfer included, in wei. */
async function gasBurned(execution: Execution): Promise<bigint> {
  let burned = 0n;
  for (const step of execution.steps) {
    if (!step.txHash) continue;
    const receipt = await t.publicClient.getTransactionReceipt({ hash: step.txHash as Hex });
    burned += receipt.gasUsed * receipt.effectiveGasPrice;
  }
  return burned;
}

const withTank = { gasTank: { key: tankKey, rates: DEV_GAS_FEE_RATES, policy: { actionDayCount: ACTIONS_A_DAY } } };

beforeAll(async () => {
  t = await startTestChain();
  c = t.deployment.contracts;
  await t.testClient.setBalance({ address: tank, value: 10n * WEI });
  b = await startExecutorBackends(t, undefined, withTank);
});
afterAll(async () => {
  await b?.close();
  await t?.close();
});

describe("the gas tank", () => {
  it("stakes for a wallet with 0 BNB: the fee quoted is the fee taken, the wallet keeps 0 BNB, the tank pays only the gas burned", async () => {
    const player = await managedPlayer(b, t, { FIRE: 1_000n });
    const request = deposit(100n);
    const quote = await review(player.token, request);
    expect(quote).toMatchObject({ action: "staking.deposit", token: "FIRE", spends: (100n * WEI).toString(), status: "open" });
    expect(quote.labels).toEqual(["Approve 100 FIRE for staking", "Stake 100 FIRE in the Standard Pool"]);
    expect(BigInt(quote.fee)).toBe(feeWei(BigInt(quote.gas), BigInt(DEV_GAS_FEE_RATES.FIRE) * WEI));
    expect(BigInt(quote.fee)).toBeGreaterThan(0n);
    // The same form posted again reviews the same fee.
    expect((await review(player.token, request)).id).toBe(quote.id);
    const tankBefore = await bnbOf(tank);

    const confirmed = await confirm(player.token, quote.id);
    expect(confirmed.status, confirmed.msg).toBe(200);
    const execution = await settled(b, player.token, confirmed.data.id);
    expect(execution.status, execution.error ?? "").toBe("mined");
    expect(execution.steps.map((step) => step.kind)).toEqual(["gas-topup", "gas-fee", "approve-stake", "deposit", "gas-refund"]);
    expect(execution.result?.networkFee).toEqual({ token: "FIRE", wei: quote.fee });

    expect(await bnbOf(player.wallet)).toBe(0n);
    expect(await fireOf(player.wallet)).toBe(900n * WEI - BigInt(quote.fee));
    expect(await fireOf(tank)).toBe(BigInt(quote.fee));
    expect(tankBefore - (await bnbOf(tank))).toBe(await gasBurned(execution));
    const [staked] = await t.publicClient.readContract({
      address: c.staking,
      abi: fireStakingAbi,
      functionName: "queryUserStake",
      args: [1n, player.wallet],
    });
    expect(staked).toBe(100n * WEI);

    // Confirmed again (a second click): the same execution, nothing more sent or counted.
    const twice = await confirm(player.token, quote.id);
    expect(twice.data.id).toBe(execution.id);
    expect((await b.call<GasQuote>("GET", `/sso/actions/quotes/${quote.id}`, undefined, player.token)).data).toMatchObject({
      status: "confirmed",
      executionId: execution.id,
    });
  });

  it("refuses in words a wallet with neither BNB nor a token to pay the fee in, and queues nothing", async () => {
    const player = await managedPlayer(b, t, { boxes: { 4: 1 } });
    const answer = await postAction(b, player.token, {
      action: "lootbox.open",
      params: { typeBox: 4, count: 1 },
      idempotencyKey: newKey(),
    });
    expect(answer.status).toBe(400);
    expect(answer.msg).toMatch(
      /^Your wallet holds no BNB for this action's network fee, and not enough of any token to pay it instead \([\d.]+ FIRE, or [\d.]+ QUARK, or [\d.]+ USDT, besides what the action spends\)\. Send BNB or one of these tokens to your wallet first\.$/,
    );
    expect(await t.publicClient.getTransactionCount({ address: player.wallet })).toBe(0);
  });

  it(`sponsors at most ${ACTIONS_A_DAY} actions of a kind a day per account: of two confirmations at the limit, one passes`, async () => {
    const player = await managedPlayer(b, t, { FIRE: 1_000n });
    const first = await review(player.token, deposit(100n));
    expect((await settled(b, player.token, (await confirm(player.token, first.id)).data.id)).status).toBe("mined");
    const [second, third] = [await review(player.token, deposit(100n)), await review(player.token, deposit(100n))];
    const answers = await Promise.all([confirm(player.token, second.id), confirm(player.token, third.id)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    expect(answers.find((answer) => answer.status === 400)!.msg).toBe(actionBudgetSpent(ACTIONS_A_DAY));
    const passed = answers.find((answer) => answer.status === 200)!;
    expect((await settled(b, player.token, passed.data.id)).status).toBe("mined");
    // Past the limit the review itself refuses.
    const over = await postAction(b, player.token, deposit(100n));
    expect(over.status).toBe(400);
    expect(over.msg).toBe(actionBudgetSpent(ACTIONS_A_DAY));
  });

  it("refuses in words while the tank is dry, and runs a confirmed action once it is refilled", async () => {
    const player = await managedPlayer(b, t, { FIRE: 1_000n });
    const quote = await review(player.token, deposit(100n));
    const full = await bnbOf(tank);
    await t.testClient.setBalance({ address: tank, value: 0n });
    const refused = await postAction(b, player.token, deposit(100n));
    expect(refused.status).toBe(400);
    expect(refused.msg).toMatch(/^The site cannot pay this action's network fee right now \(it needs [\d.]+ BNB\), so nothing was sent\./);

    const confirmed = await confirm(player.token, quote.id);
    expect(confirmed.status, confirmed.msg).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const waiting = await b.call<Execution>("GET", `/sso/actions/${confirmed.data.id}`, undefined, player.token);
    expect(waiting.data.status).toBe("queued");
    expect(waiting.data.steps.every((step) => step.status === "pending")).toBe(true);

    await t.testClient.setBalance({ address: tank, value: full });
    const execution = await settled(b, player.token, confirmed.data.id, 30_000);
    expect(execution.status, execution.error ?? "").toBe("mined");
    expect(await bnbOf(player.wallet)).toBe(0n);
  });

  it("resumes after a restart between the tank's transfer and its mining: neither the gas nor the fee is sent twice", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-gas-tank-restart-"));
    const file = path.join(dir, "test.db");
    let first: ExecutorBackend | undefined = await startExecutorBackends(t, file, withTank);
    let second: ExecutorBackend | undefined;
    try {
      const player = await managedPlayer(first, t, { FIRE: 1_000n });
      const quote = (await first.call<{ review: GasQuote }>("POST", "/sso/actions", deposit(100n), player.token)).data.review;
      const tankNonce = await t.publicClient.getTransactionCount({ address: tank });
      await t.testClient.setAutomine(false);
      const confirmed = await first.call<Execution>("POST", `/sso/actions/quotes/${quote.id}/confirm`, {}, player.token);
      expect(confirmed.status, confirmed.msg).toBe(200);
      let topUp: Hex | null = null;
      while (!topUp) {
        const now = await first.call<Execution>("GET", `/sso/actions/${confirmed.data.id}`, undefined, player.token);
        topUp = (now.data.steps[0]?.status === "sent" && (now.data.steps[0].txHash as Hex)) || null;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // Down before the tank's transfer is mined, and the node forgets it (as after its own restart).
      await first.close();
      first = undefined;
      await t.testClient.dropTransaction({ hash: topUp });
      await t.testClient.setAutomine(true);

      second = await startExecutorBackends(t, file, withTank);
      const execution = await settled(second, player.token, confirmed.data.id, 30_000);
      expect(execution.status, execution.error ?? "").toBe("mined");
      expect(execution.steps[0]!.txHash).toBe(topUp);
      expect(await t.publicClient.getTransactionCount({ address: tank })).toBe(tankNonce + 1);
      expect(await bnbOf(player.wallet)).toBe(0n);
      expect(await fireOf(player.wallet)).toBe(900n * WEI - BigInt(quote.fee));
    } finally {
      await t.testClient.setAutomine(true);
      await first?.close();
      await second?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("claims game FIRE to a wallet with neither BNB nor FIRE: the fee is paid from what the claim brought, in the same execution", async () => {
    const player = await managedPlayer(b, t, {});
    await new MarketDb(b.store).write((tx) => creditGameBalance(tx, player.wallet, "FIRE", 100n * WEI));
    const claim = await b.call<SignedClaim>(
      "POST",
      `/api/v1/gameRelate/takeOutTokenSign?${new URLSearchParams({ fire: (100n * WEI).toString(), gameTag: "1" })}`,
      undefined,
      player.token,
    );
    expect(claim.status, claim.msg).toBe(200);
    const quote = await claimPayingItsFee(player.token, "bridge.claim", claim.data, "FIRE");
    expect(await fireOf(player.wallet)).toBe(100n * WEI - BigInt(quote.fee));
    expect(await bnbOf(player.wallet)).toBe(0n);
  });

  it("pays a referral award in USDT to a wallet with neither BNB nor tokens: the fee comes from the award, in the same execution", async () => {
    const player = await managedPlayer(b, t, {});
    const rebate = 50n * WEI;
    await b.store.sql.run("insert into market_rebate_balances (address, currency, earned, claimed) values (?, 'USDT', ?, '0')", [
      player.wallet,
      rebate.toString(),
    ]);
    const claimed = await b.call<{ award: { txId: string } }>(
      "POST",
      "/api/v1/informationCenter/claimRebate?erc20Addr=USDT",
      undefined,
      player.token,
    );
    expect(claimed.status, claimed.msg).toBe(200);
    const signed = await b.call<SignedClaim>(
      "POST",
      "/api/v1/informationCenter/awardSign?txId=" + claimed.data.award.txId,
      undefined,
      player.token,
    );
    expect(signed.status, signed.msg).toBe(200);
    const quote = await claimPayingItsFee(player.token, "reward.claim", signed.data, "USDT");
    expect(await usdtOf(player.wallet)).toBe(rebate - BigInt(quote.fee));
    expect(await bnbOf(player.wallet)).toBe(0n);
  });

  // Last: it ends the pool's staking on this file's chain.
  it("sends the unused gas back when the action is refused after the tank's transfer, so the wallet still holds 0 BNB", async () => {
    const player = await managedPlayer(b, t, { FIRE: 1_000n });
    const quote = await review(player.token, deposit(100n));
    const tankBefore = await bnbOf(tank);
    await t.testClient.setAutomine(false);
    let confirmed!: Awaited<ReturnType<typeof confirm>>;
    try {
      confirmed = await confirm(player.token, quote.id);
      expect(confirmed.status, confirmed.msg).toBe(200);
      for (;;) {
        const now = await b.call<Execution>("GET", `/sso/actions/${confirmed.data.id}`, undefined, player.token);
        if (now.data.steps[0]?.status === "sent") break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // Staking ends while the tank's transfer waits to be mined: the deposit is refused once its turn comes.
      const now = await t.publicClient.readContract({ address: c.staking, abi: fireStakingAbi, functionName: "getBlockchainTime" });
      const { endStakingTime } = await t.publicClient.readContract({
        address: c.staking,
        abi: fireStakingAbi,
        functionName: "queryPoolInfo",
        args: [1n],
      });
      await t.advanceTime(Number(BigInt(endStakingTime) - now) + 1);
    } finally {
      await t.testClient.setAutomine(true);
      await t.testClient.mine({ blocks: 1 });
    }
    const execution = await settled(b, player.token, confirmed.data.id, 30_000);
    expect(execution.status).toBe("failed");
    expect(execution.error).toMatch(/^Staking in the Standard Pool has ended/);
    expect(execution.steps.map((step) => [step.kind, step.status])).toEqual([
      ["gas-topup", "mined"],
      ["gas-fee", "mined"],
      ["approve-stake", "mined"],
      ["deposit", "failed"],
      ["gas-refund", "mined"],
    ]);
    expect(await bnbOf(player.wallet)).toBe(0n);
    expect(tankBefore - (await bnbOf(tank))).toBe(await gasBurned(execution));
  });
});

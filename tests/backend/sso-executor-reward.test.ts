/**
 * The executor's reward.claim on a real chain with the real backends (issue 29): a managed wallet submits the award
 * the market signed for its rebate, the reward manager pays it to the wei, and the market's indexer marks it paid.
 * What the contract would refuse (an award paid already, an asset manager claim sent to the reward manager, an award
 * sent to the asset manager) is refused first, in words, with nothing sent.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { gameTokenAbi } from "../../contracts/generated/abi";
import type { AwardRecord, RebateClaim, SignedClaimWire } from "~core/api/market";
import { creditRebate } from "../../backend/market/shared/activity";
import { MarketDb } from "../../backend/market/shared/db";
import { creditGameBalance } from "../../backend/market/shared/ledger";
import { CLAIM_MESSAGES } from "../../backend/sso/executor/bridge";
import { stepGasLimit } from "../../backend/sso/executor/policy";
import { setUpChainWith, type TestChain } from "../contracts/harness";
import {
  creditedPlayer,
  type ExecutorBackend,
  type managedPlayer,
  newKey,
  postAction,
  settled,
  startExecutorBackends,
} from "./sso-executor-helpers";
import { WEI_PER_TOKEN } from "~core/money";

const WEI = WEI_PER_TOKEN;
const REBATE = 2n * WEI + 345n;
let t: TestChain;
let b: ExecutorBackend;
let player: Awaited<ReturnType<typeof managedPlayer>>;

setUpChainWith(startExecutorBackends, (testChain, started) => ([t, b] = [testChain, started]));
beforeAll(async () => {
  player = await creditedPlayer(b, t, async (tx, wallet) => {
    await creditRebate(tx, wallet, "USDT", REBATE);
    await creditGameBalance(tx, wallet, "FIRE", 10n * WEI);
  });
});

const market = <T>(method: "GET" | "POST", path: string, query: Record<string, string>) =>
  b.call<T>(method, `/api/v1${path}?${new URLSearchParams(query)}`, undefined, player.token);
const chainUsdt = () =>
  t.publicClient.readContract({
    address: t.deployment.contracts.usdt,
    abi: gameTokenAbi,
    functionName: "balanceOf",
    args: [player.wallet],
  });
const submit = (action: "reward.claim" | "bridge.claim", claim: SignedClaimWire) =>
  postAction(b, player.token, {
    action,
    params: { claim_content: claim.claim_content, v: claim.v, r: claim.r, s: claim.s },
    idempotencyKey: newKey(),
  });

describe("reward.claim", () => {
  it("pays a rebate's award to the wei once, refuses it again before sending, and the award is paid once indexed", async () => {
    const claimed = await market<RebateClaim>("POST", "/informationCenter/claimRebate", { erc20Addr: "USDT" });
    expect(claimed.status, claimed.msg).toBe(200);
    expect(claimed.data.amount).toBe(REBATE.toString());
    const started = await submit("reward.claim", claimed.data.claim);
    expect(started.status, started.msg).toBe(200);
    expect(started.data.steps.map((s) => [s.kind, s.label])).toEqual([["claim", "Claim 2.000000000000000345 USDT to the chain"]]);
    const done = await settled(b, player.token, started.data.id);
    expect(done.status, done.error ?? "").toBe("mined");
    expect(await chainUsdt()).toBe(REBATE);
    const receipt = await t.publicClient.getTransactionReceipt({ hash: done.txHash as `0x${string}` });
    expect(receipt.gasUsed * 5n).toBeLessThan(stepGasLimit("claim") * 4n);

    const sent = await t.publicClient.getTransactionCount({ address: player.wallet });
    expect([(await submit("reward.claim", claimed.data.claim)).msg]).toEqual([CLAIM_MESSAGES.used]);
    expect(await t.publicClient.getTransactionCount({ address: player.wallet })).toBe(sent);
    await b.indexer.waitForBlock(await t.publicClient.getBlockNumber({ cacheTime: 0 }), 15_000);
    const awards = await market<AwardRecord[]>("GET", "/informationCenter/awards", {});
    expect(awards.data[0]).toMatchObject({ txId: claimed.data.award.txId, statusName: "paid" });
  });

  it("refuses an asset manager claim sent to the reward manager, and an award sent to the asset manager", async () => {
    const takeOut = await market<SignedClaimWire>("POST", "/gameRelate/takeOutTokenSign", { fire: (5n * WEI).toString(), gameTag: "1" });
    expect(takeOut.status, takeOut.msg).toBe(200);
    expect((await submit("reward.claim", takeOut.data)).msg).toBe(CLAIM_MESSAGES.otherContract);
    const db = new MarketDb(b.store);
    await db.write((tx) => creditRebate(tx, player.wallet, "USDT", 10n));
    const award = await market<RebateClaim>("POST", "/informationCenter/claimRebate", { erc20Addr: "USDT" });
    expect((await submit("bridge.claim", award.data.claim)).msg).toBe(CLAIM_MESSAGES.otherContract);
  });
});

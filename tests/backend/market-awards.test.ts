/**
 * Rebates paid on chain (issue 29, decision 0017) with the real backends on a real chain: a claimed rebate is an award
 * the market signs and the reward manager pays; the rewards stream marks it paid (once, undone by a reorg), and an
 * award unpaid when the chain is read past its deadline goes back to the rebate balance, never one paid meanwhile.
 * The tests run in order on one chain.
 */
import { describe, expect, it, vi } from "vitest";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { gameTokenAbi, rewardManagerAbi, sparkErrorsAbi } from "../../contracts/generated/abi";
import type { AwardRecord, RebateClaim, RebateTotal, SignedClaimWire } from "~core/api/market";
import { setUpChainWith, type TestChain } from "../contracts/harness";
import { BROWSER, type Market, startMarketOnChain } from "./market-fixture";

const managerAbi = [...rewardManagerAbi, ...sparkErrorsAbi] as const;

let chain: TestChain;
let m: Market;
let c: TestChain["deployment"]["contracts"];
const player = privateKeyToAccount(BROWSER.privateKey as Hex);

setUpChainWith(startMarketOnChain, (testChain, started) => ([chain, c, m] = [testChain, testChain.deployment.contracts, started]));

const settled = async () => m.t.indexer!.waitForBlock(await chain.publicClient.getBlockNumber({ cacheTime: 0 }), 15_000);
const chainUsdt = () =>
  chain.publicClient.readContract({ address: c.usdt, abi: gameTokenAbi, functionName: "balanceOf", args: [player.address] });
const gameUsdt = async () =>
  BigInt((await m.ok<{ balances: { USDT: string } }>("/gameRelate/getGameToken", { gameTag: 1 }, m.tokens.browser)).balances.USDT);
const rebate = () => m.ok<RebateTotal>("/informationCenter/getRebate", { emailAddr: BROWSER.email, erc20Addr: "USDT" }, m.tokens.browser);
const award = async (txId: string) =>
  (await m.ok<AwardRecord[]>("/informationCenter/awards", {}, m.tokens.browser)).find((a) => a.txId === txId)!;

/** Gives the player `amount` wei of USDT rebate to claim (as trades of invitees would). */
async function earn(amount: bigint) {
  const row = (await m.t.store.sql.get("select earned from market_rebate_balances where address = ? and currency = 'USDT'", [
    BROWSER.wallet,
  ])) as { earned: string } | undefined;
  if (row)
    await m.t.store.sql.run("update market_rebate_balances set earned = ? where address = ? and currency = 'USDT'", [
      (BigInt(row.earned) + amount).toString(),
      BROWSER.wallet,
    ]);
  else
    await m.t.store.sql.run("insert into market_rebate_balances (address, currency, earned, claimed) values (?, 'USDT', ?, '0')", [
      BROWSER.wallet,
      amount.toString(),
    ]);
}

async function claimUsdt(): Promise<RebateClaim> {
  const answer = await m.post<RebateClaim>("/informationCenter/claimRebate", { erc20Addr: "USDT" }, undefined, m.tokens.browser);
  expect(answer.status, answer.msg).toBe(200);
  return answer.data;
}

function submit(claim: SignedClaimWire) {
  return chain.walletFor(player).writeContract({
    address: c.rewardManager,
    abi: managerAbi,
    functionName: "awardClaim",
    args: [player.address, claim.claim_content as Hex, Number(claim.v), claim.r as Hex, claim.s as Hex],
  });
}

describe("a rebate award", () => {
  it("is signed for the reward manager, paid on chain to the wei, and marked paid once indexed", async () => {
    await settled();
    const claimable = BigInt((await rebate()).claimable);
    await earn(7_000_000_000_000_000_123n);
    const [onChainBefore, gameBefore] = [await chainUsdt(), await gameUsdt()];
    const claimed = await claimUsdt();
    expect(claimed.amount).toBe((claimable + 7_000_000_000_000_000_123n).toString());
    expect(claimed.award).toMatchObject({ statusName: "signed", token: c.usdt, rewardManager: c.rewardManager });
    expect((await rebate()).claimable).toBe("0");

    await chain.mined(submit(claimed.claim));
    expect(await chainUsdt()).toBe(onChainBefore + BigInt(claimed.amount));
    await settled();
    expect(await award(claimed.award.txId)).toMatchObject({ statusName: "paid" });
    expect(await gameUsdt()).toBe(gameBefore);
    // Paid: no wallet is handed it again.
    expect((await m.post("/informationCenter/awardSign", { txId: claimed.award.txId }, undefined, m.tokens.browser)).msg).toBe(
      "This award has already been paid on the chain.",
    );
  });

  it("goes back to signed when the block that paid it vanishes in a reorg, and is paid once when mined anew", async () => {
    await earn(5n);
    const claimed = await claimUsdt();
    const snapshot = await chain.testClient.snapshot();
    await chain.mined(submit(claimed.claim));
    await settled();
    expect((await award(claimed.award.txId)).statusName).toBe("paid");

    await chain.testClient.revert({ id: snapshot });
    await chain.testClient.mine({ blocks: 3 });
    await expect.poll(async () => (await award(claimed.award.txId)).statusName, { timeout: 15_000 }).toBe("signed");
    await chain.mined(submit(claimed.claim));
    await settled();
    expect((await award(claimed.award.txId)).statusName).toBe("paid");
    expect(await m.scalar("select count(*) from market_reward_events where effect like '%award-paid%'")).toBe(2);
  });
});

// Last: it moves the chain's clock two hours on.
describe("expiry", () => {
  it("returns an unpaid award to the rebate balance once the chain is read past its deadline, never one paid meanwhile", async () => {
    await earn(30n);
    const paid = await claimUsdt();
    await earn(10n);
    const unused = await claimUsdt();
    const onChainBefore = await chainUsdt();

    // The indexer stalls while the player submits one award and the deadlines pass.
    await m.t.indexer!.stop();
    await chain.mined(submit(paid.claim));
    await chain.testClient.increaseTime({ seconds: 2 * 60 * 60 });
    await chain.testClient.mine({ blocks: 1 });
    // The server's clock is past deadline and grace too; the clock alone would return both.
    const clock = vi.spyOn(Date, "now").mockReturnValue(Date.now() + 2 * 60 * 60 * 1000);
    try {
      expect((await rebate()).claimable).toBe("0");
      expect((await award(paid.award.txId)).statusName).toBe("signed");
    } finally {
      clock.mockRestore();
    }

    m.t.indexer!.start();
    await settled();
    expect((await award(paid.award.txId)).statusName).toBe("paid");
    expect((await award(unused.award.txId)).statusName).toBe("expired");
    expect((await rebate()).claimable).toBe("10");
    expect(await chainUsdt()).toBe(onChainBefore + 30n);
    // The chain refuses the lapsed one, and the market no longer hands it out.
    expect((await m.post("/informationCenter/awardSign", { txId: unused.award.txId }, undefined, m.tokens.browser)).status).toBe(409);
    // What came back is claimed again as a new award.
    expect((await claimUsdt()).amount).toBe("10");
  });
});

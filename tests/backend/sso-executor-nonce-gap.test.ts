/**
 * The executor behind a nonce gap (decision 0040): the chain takes back transactions the runner already counted (a
 * deep reorg, here anvil's evm_revert), so the wallet's next transaction is signed above the chain's nonce. The
 * runner sends the taken-back steps again as their stored bytes, fills a nonce nothing it stored can fill with a
 * no-op, and the wallet's queue goes on; the gas tank's too, whose one nonce sequence serves every player. Each of
 * these tests waited until its timeout before (the step signed above the gap never mined).
 */
import { describe, expect, it } from "vitest";
import { type Address, createWalletClient, type Hex, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { blindBoxAbi, fireStakingAbi } from "../../contracts/generated/abi";
import type { Execution, GasQuote } from "~core/api/actions";
import { DEV_GAS_FEE_RATES } from "~core/demo";
import { setUpChainWith, type TestChain } from "../contracts/harness";
import {
  type ExecutorBackend,
  managedPlayer,
  type ManagedPlayer,
  newKey,
  postAction,
  settled,
  startAction,
  startExecutorBackends,
  WEI,
} from "./sso-executor-helpers";

const STANDARD = 4;

let t: TestChain;
let b: ExecutorBackend;

const tankKey: Hex = generatePrivateKey();
const tank = privateKeyToAccount(tankKey).address;
const withTank = { gasTank: { key: tankKey, rates: DEV_GAS_FEE_RATES } };

setUpChainWith(
  async (chain) => {
    await chain.testClient.setBalance({ address: tank, value: 10n * WEI });
    return startExecutorBackends(chain, undefined, withTank);
  },
  (testChain, started) => ([t, b] = [testChain, started]),
);

const boxesOf = async (wallet: Address) =>
  (
    await t.publicClient.readContract({
      address: t.deployment.contracts.box,
      abi: blindBoxAbi,
      functionName: "queryUserBoxes",
      args: [wallet],
    })
  )[0];
const sent = (wallet: Address) => t.publicClient.getTransactionCount({ address: wallet });
const buyOne = { action: "lootbox.buy" as const, params: { typeBox: STANDARD, currency: "BNB" as const, quantity: 1 } };

/** A sponsored stake of 100 FIRE (decision 0038): reviewed, confirmed, settled. */
async function sponsoredStake(player: ManagedPlayer): Promise<Execution> {
  const request = { action: "staking.deposit" as const, params: { poolId: 1, amount: (100n * WEI).toString() }, idempotencyKey: newKey() };
  const { review } = (await postAction(b, player.token, request)).data as unknown as { review: GasQuote };
  expect(review).toBeDefined();
  const confirmed = await b.call<Execution>("POST", `/sso/actions/quotes/${review.id}/confirm`, {}, player.token);
  expect(confirmed.status, confirmed.msg).toBe(200);
  return settled(b, player.token, confirmed.data.id, 15_000);
}
const stakeOf = async (wallet: Address) =>
  (
    await t.publicClient.readContract({
      address: t.deployment.contracts.staking,
      abi: fireStakingAbi,
      functionName: "queryUserStake",
      args: [1n, wallet],
    })
  )[0];

/** The wallet's transaction of this nonce among the blocks after `from`. */
async function transactionOf(wallet: Address, nonce: number, from: bigint) {
  const head = await t.publicClient.getBlockNumber();
  for (let number = from + 1n; number <= head; number++) {
    const block = await t.publicClient.getBlock({ blockNumber: number, includeTransactions: true });
    const tx = block.transactions.find((candidate) => candidate.from.toLowerCase() === wallet.toLowerCase() && candidate.nonce === nonce);
    if (tx) return tx;
  }
  return null;
}

describe("a nonce gap behind the runner's count", () => {
  it("sends a mined step the chain took back again, as its stored bytes, and the wallet's next action mines", async () => {
    const player = await managedPlayer(b, t, { BNB: 1n });
    const snapshot = await t.testClient.snapshot();
    const first = await settled(b, player.token, await startAction(b, player, buyOne));
    expect(first.status, first.error ?? "").toBe("mined");
    expect(await boxesOf(player.wallet)).toHaveLength(1);

    // A deep reorg: the purchase is gone from the chain (and from the node's pool), its step still recorded mined;
    // the new chain is a few blocks longer.
    await t.testClient.revert({ id: snapshot });
    await t.testClient.mine({ blocks: 3 });
    expect([await sent(player.wallet), await boxesOf(player.wallet)]).toEqual([0, []]);

    // Signed at nonce 1 (the runner counted the first purchase's 0): before decision 0040 it waited forever.
    const second = await settled(b, player.token, await startAction(b, player, buyOne), 15_000);
    expect(second.status, second.error ?? "").toBe("mined");
    // The first purchase happened again, once: the same transaction, in a later block, which its record now names.
    expect(await boxesOf(player.wallet)).toHaveLength(2);
    expect(await sent(player.wallet)).toBe(2);
    const again = await t.publicClient.getTransactionReceipt({ hash: first.txHash as Hex });
    expect(again.status).toBe("success");
    expect(again.blockNumber).toBeGreaterThan(BigInt(first.blockNumber!));
    const recorded = await b.call<{ blockNumber: string; steps: { blockNumber: string }[] }>(
      "GET",
      `/sso/actions/${first.id}`,
      undefined,
      player.token,
    );
    expect([recorded.data.blockNumber, recorded.data.steps[0]!.blockNumber]).toEqual([
      String(again.blockNumber),
      String(again.blockNumber),
    ]);
  });

  it("fills a nonce no stored transaction can fill with a no-op, so the waiting step's own bytes mine, once", async () => {
    const player = await managedPlayer(b, t, { BNB: 1n });
    const snapshot = await t.testClient.snapshot();
    const fork = await t.publicClient.getBlockNumber();
    // Something else sends from the wallet first (anvil signs for it): nonce 0, which the executor's records do not know.
    await t.testClient.impersonateAccount({ address: player.wallet });
    const own = createWalletClient({ account: player.wallet, chain: t.publicClient.chain, transport: http(t.rpcUrl) });
    await t.mined(own.sendTransaction({ to: player.wallet, value: 1n }));
    await t.testClient.stopImpersonatingAccount({ address: player.wallet });
    const first = await settled(b, player.token, await startAction(b, player, buyOne));
    expect(first.status, first.error ?? "").toBe("mined");

    // Both taken back: nonce 0 now has no transaction the runner could send again, nonce 1 has the purchase's.
    await t.testClient.revert({ id: snapshot });
    await t.testClient.mine({ blocks: 2 });
    expect(await sent(player.wallet)).toBe(0);

    const second = await settled(b, player.token, await startAction(b, player, buyOne), 15_000);
    expect(second.status, second.error ?? "").toBe("mined");
    expect(await sent(player.wallet)).toBe(3);
    expect(await boxesOf(player.wallet)).toHaveLength(2);
    // Nonce 0: a transfer of nothing to itself, which moves no asset; nonce 1 the first purchase again; nonce 2 the second.
    const filler = await transactionOf(player.wallet, 0, fork);
    expect(filler && { to: filler.to?.toLowerCase(), value: filler.value, input: filler.input }).toEqual({
      to: player.wallet.toLowerCase(),
      value: 0n,
      input: "0x",
    });
    expect((await transactionOf(player.wallet, 1, fork))?.hash).toBe(first.txHash);
    expect((await transactionOf(player.wallet, 2, fork))?.hash).toBe(second.txHash);
  });

  it("closes the gas tank's gap: a taken-back top-up is sent again, and every other player's sponsored action goes on", async () => {
    const first = await managedPlayer(b, t, { FIRE: 1_000n });
    const snapshot = await t.testClient.snapshot();
    const stake = await sponsoredStake(first);
    expect(stake.status, stake.error ?? "").toBe("mined");
    const topUp = stake.steps[0]!;
    expect(topUp.kind).toBe("gas-topup");
    const tankSent = await sent(tank);

    await t.testClient.revert({ id: snapshot });
    await t.testClient.mine({ blocks: 3 });
    expect(await sent(tank)).toBe(tankSent - 1);

    // Another player's top-up is signed after the tank's count, behind the taken-back one: before 0040 it waited
    // forever, and with it every sponsored action of every player.
    const second = await managedPlayer(b, t, { FIRE: 1_000n });
    const other = await sponsoredStake(second);
    expect(other.status, other.error ?? "").toBe("mined");
    expect(await stakeOf(second.wallet)).toBe(100n * WEI);
    expect(await sent(tank)).toBe(tankSent + 1);
    // The first top-up mined again, as its own bytes. The first wallet's own steps wait for its next action to be sent
    // again (a gap is seen while a step of its signer waits): its BNB is the top-up's, its stake not there yet.
    const again = await t.publicClient.getTransaction({ hash: topUp.txHash as Hex });
    expect(again.blockNumber).toBeGreaterThan(BigInt(topUp.blockNumber!));
    expect(await t.publicClient.getBalance({ address: first.wallet })).toBe(again.value);
    expect(await stakeOf(first.wallet)).toBe(0n);
  });
});

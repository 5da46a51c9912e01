/**
 * Moving the e2e chain's clock, for the specs under tests/e2e/chain-time/ only. Time on a chain only goes
 * forward, and the stake pools, the loot box 24 h windows and every other spec share this chain, so those specs
 * run in their own projects after all the others (playwright.config.ts), and each one puts the chain back as it
 * found it: `snapshotChain()` at the start, the returned `revert()` at the end.
 */
import type { TestType } from "@playwright/test";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { DEV_GAS_TANK_KEY, DEV_STORE_MINTER_KEY } from "~core/demo";
import { rpc } from "./chain-funds";

/** The latest block's timestamp: the chain's now, in seconds. */
export async function chainNow(): Promise<bigint> {
  const block = await rpc<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
  return BigInt(block.timestamp);
}

/** Moves the chain's clock forward and mines a block at the new time, so reads see it at once. */
export async function advanceChainTime(seconds: number | bigint): Promise<void> {
  await rpc("evm_increaseTime", [Number(seconds)]);
  await rpc("evm_mine");
}

/** Moves the chain's clock to just past `timestamp` (no-op when it is already later). */
export async function advanceChainTimePast(timestamp: bigint): Promise<void> {
  const now = await chainNow();
  if (now <= timestamp) await advanceChainTime(timestamp - now + 1n);
}

/**
 * The e2e server's own signers that serve every test (the gas tank, the store's minter): the executor counts their
 * nonces, and no node would mine their next transaction if a revert took back the ones it counted.
 */
const SHARED_SIGNERS = [DEV_GAS_TANK_KEY, DEV_STORE_MINTER_KEY].map((key) => privateKeyToAccount(key as Hex).address);

/**
 * Takes a snapshot of the whole chain (state and clock); `revert()` returns to it, but for the shared signers'
 * nonces, which keep counting as if the transactions taken back had been replaced by others.
 */
export async function snapshotChain(): Promise<{ revert: () => Promise<void> }> {
  const id = await rpc<string>("evm_snapshot");
  return {
    async revert() {
      const nonces = await Promise.all(SHARED_SIGNERS.map((address) => rpc<Hex>("eth_getTransactionCount", [address, "latest"])));
      const reverted = await rpc<boolean>("evm_revert", [id]);
      if (!reverted) throw new Error(`The chain could not go back to snapshot ${id}`);
      await Promise.all(SHARED_SIGNERS.map((address, i) => rpc("anvil_setNonce", [address, nonces[i]])));
    },
  };
}

/**
 * What every chain-time spec declares first: its tests run in order, and the chain goes back to the snapshot taken
 * before them once they are done.
 */
export function restoresChain(test: Pick<TestType<object, object>, "describe" | "beforeAll" | "afterAll">): void {
  test.describe.configure({ mode: "serial" });
  let snapshot: Awaited<ReturnType<typeof snapshotChain>>;
  test.beforeAll(async () => {
    snapshot = await snapshotChain();
  });
  test.afterAll(async () => {
    await snapshot.revert();
  });
}

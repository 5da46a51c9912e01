/**
 * The loyalty pools as the chain has them (FireStaking, issue 13), for the /loyalty pages' loaders.
 * - One snapshot per block: the pools (queryPoolInfo), the total staked (getTotalPoolSupply) and the chain's
 *   clock (getBlockchainTime), all read at the same block and cached under its hash. A page costs one
 *   eth_getBlockByNumber while the chain stands still, whatever the traffic; a new block, a reorg or a reverted
 *   local chain (another hash) reads again. Concurrent requests for one block share one read.
 * - A wallet's side (its stakes, its FIRE) is cached per block the same way, for a bounded number of wallets.
 * - A wallet's deposits and withdrawals come from the contract's events, scanned from the deployment block in
 *   ranges a public node accepts, and then only the blocks added since (the scan is redone when its last block
 *   is no longer on the chain).
 */
import { type Address, getAddress, type Hash, isAddress, type PublicClient } from "viem";
import { fireStakingAbi, gameTokenAbi } from "../../../contracts/generated/abi";
import { STAKE_POOLS } from "~core/pools";
import { type PoolState, poolStatus, type UserStake } from "~core/staking";
import { chain } from "~/services/chain.server";
import { blockRanges, blockTimes, byChainOrder, EventHistories } from "~/services/event-history.server";

export interface StakingSnapshot {
  blockNumber: bigint;
  blockHash: Hash;
  /** getBlockchainTime at the snapshot's block: the time pool dates are compared with. */
  now: bigint;
  totalPoolSupply: bigint;
  /** The catalogue's pools that exist on chain, in catalogue order. */
  pools: PoolState[];
}

export interface WalletStakes {
  address: Address;
  fire: bigint;
  /** For gas: a managed wallet without BNB is told before it posts. */
  bnb: bigint;
  stakes: UserStake[];
}

export type StakingHistoryEntry =
  | { kind: "deposit"; blockNumber: bigint; txHash: Hash; time: bigint; amount: bigint; stakeAfter: bigint; rewardBoxesAfter: bigint }
  | { kind: "withdrawal"; blockNumber: bigint; txHash: Hash; time: bigint; amount: bigint; rewardBoxIds: bigint[] };

/** Wallets whose reads and histories are kept (least recently used goes first). */
const WALLETS_KEPT = 500;

export const WALLET_FORMAT_MESSAGE = "Enter a wallet address: 0x followed by 40 hexadecimal characters.";

/** `?wallet=` as an address, or why not; absent is no lookup. */
export function lookedUpWallet(url: URL): { wallet: Address | null; typed: string; error: string | null } {
  const typed = (url.searchParams.get("wallet") ?? "").trim().slice(0, 100);
  if (!typed) return { wallet: null, typed, error: null };
  return isAddress(typed, { strict: false })
    ? { wallet: getAddress(typed), typed, error: null }
    : { wallet: null, typed, error: WALLET_FORMAT_MESSAGE };
}

/** What the browser-wallet staking island needs to reach the chain: public by nature. */
export function stakingChainConfig() {
  const { deployment, rpcUrl } = chain();
  const { fire, staking } = deployment.contracts;
  return { chainId: deployment.chainId, rpcUrl, contracts: { fire, staking } };
}

const staking = () => ({ address: chain().deployment.contracts.staking, abi: fireStakingAbi }) as const;

let snapshotCache: { hash: Hash; snapshot: Promise<StakingSnapshot> } | null = null;
const walletCache = new Map<string, Promise<WalletStakes>>();
let walletCacheHash: Hash | null = null;

/** The chain's head now: one request, and the key of every cache here. */
async function head(client: PublicClient) {
  const block = await client.getBlock({ blockTag: "latest" });
  if (block.number === null || block.hash === null) throw new Error("The node returned a pending block as latest");
  return { number: block.number, hash: block.hash };
}

async function readSnapshot(client: PublicClient, blockNumber: bigint, blockHash: Hash): Promise<StakingSnapshot> {
  const at = { ...staking(), blockNumber } as const;
  const [now, totalPoolSupply, ids] = await Promise.all([
    client.readContract({ ...at, functionName: "getBlockchainTime" }),
    client.readContract({ ...at, functionName: "getTotalPoolSupply" }),
    client.readContract({ ...at, functionName: "poolIds" }),
  ]);
  const onChain = new Set(ids.map(Number));
  const pools = await Promise.all(
    STAKE_POOLS.filter((pool) => onChain.has(pool.id)).map(async (pool): Promise<PoolState> => {
      const info = await client.readContract({ ...at, functionName: "queryPoolInfo", args: [BigInt(pool.id)] });
      return {
        poolId: pool.id,
        status: poolStatus(info, now),
        stakers: info.stakingAddrNumber,
        totalStaked: info.totalStakingTokens,
        beginVaultTime: info.beginVaultTime,
        endStakingTime: info.endStakingTime,
        endVaultTime: info.endVaultTime,
        takerThreshold: info.takerThreshold,
        rewardNftType: Number(info.rewardNftType),
        rewardNftMaxSupply: info.rewardNftMaxSupply,
        rewardNftAllocNumber: info.rewardNftAllocNumber,
        claimedNftNumber: info.claimedNftNumber,
      };
    }),
  );
  return { blockNumber, blockHash, now, totalPoolSupply, pools };
}

/** The pools at the chain's head, read once per block. */
export async function readStakingSnapshot(): Promise<StakingSnapshot> {
  const { client } = chain();
  const { number, hash } = await head(client);
  if (snapshotCache?.hash !== hash) {
    const snapshot = readSnapshot(client, number, hash);
    snapshotCache = { hash, snapshot };
    // A failed read is not kept: the next request tries again.
    snapshot.catch(() => {
      if (snapshotCache?.snapshot === snapshot) snapshotCache = null;
    });
  }
  return snapshotCache.snapshot;
}

async function readWallet(client: PublicClient, wallet: Address, blockNumber: bigint): Promise<WalletStakes> {
  const { fire } = chain().deployment.contracts;
  const [balance, bnb, stakes] = await Promise.all([
    client.readContract({ address: fire, abi: gameTokenAbi, functionName: "balanceOf", args: [wallet], blockNumber }),
    client.getBalance({ address: wallet, blockNumber }),
    Promise.all(
      STAKE_POOLS.map(async (pool): Promise<UserStake> => {
        const [staked, rewardBoxes] = await client.readContract({
          ...staking(),
          functionName: "queryUserStake",
          args: [BigInt(pool.id), wallet],
          blockNumber,
        });
        return { poolId: pool.id, staked, rewardBoxes };
      }),
    ),
  ]);
  return { address: wallet, fire: balance, bnb, stakes };
}

/** A wallet's FIRE and stakes at the snapshot's block (pass the snapshot the page shows, so both agree). */
export async function readWalletStakes(wallet: Address, at: Pick<StakingSnapshot, "blockNumber" | "blockHash">): Promise<WalletStakes> {
  if (walletCacheHash !== at.blockHash) {
    walletCache.clear();
    walletCacheHash = at.blockHash;
  }
  const key = wallet.toLowerCase();
  let entry = walletCache.get(key);
  if (!entry) {
    entry = readWallet(chain().client, wallet, at.blockNumber);
    const kept = entry;
    kept.catch(() => walletCache.get(key) === kept && walletCache.delete(key));
    if (walletCache.size >= WALLETS_KEPT) walletCache.delete(walletCache.keys().next().value!);
  } else {
    walletCache.delete(key);
  }
  walletCache.set(key, entry);
  return entry;
}

const histories = new EventHistories<StakingHistoryEntry>(WALLETS_KEPT);

async function scanHistory(client: PublicClient, poolId: number, wallet: Address, fromBlock: bigint, toBlock: bigint) {
  const { address } = staking();
  const args = { poolId: BigInt(poolId), user: wallet };
  const found = await Promise.all(
    blockRanges(fromBlock, toBlock).map(([from, to]) =>
      Promise.all([
        client.getContractEvents({
          address,
          abi: fireStakingAbi,
          eventName: "Deposited",
          args,
          fromBlock: from,
          toBlock: to,
          strict: true,
        }),
        client.getContractEvents({
          address,
          abi: fireStakingAbi,
          eventName: "Withdrawn",
          args,
          fromBlock: from,
          toBlock: to,
          strict: true,
        }),
      ]),
    ),
  );
  const logs = found.flatMap(([deposits, withdrawals]) => [...deposits, ...withdrawals]);
  logs.sort(byChainOrder);
  const times = await blockTimes(client, logs);
  return logs.map((log): StakingHistoryEntry => {
    const base = { blockNumber: log.blockNumber, txHash: log.transactionHash, time: times.get(log.blockNumber)! };
    return log.eventName === "Deposited"
      ? { kind: "deposit", ...base, amount: log.args.amount, stakeAfter: log.args.stakingNumber, rewardBoxesAfter: log.args.nftNumber }
      : { kind: "withdrawal", ...base, amount: log.args.amount, rewardBoxIds: [...log.args.rewardBoxIds] };
  });
}

/** A wallet's deposits into and withdrawals from one pool, oldest first, up to the snapshot's block. */
export async function readStakingHistory(
  poolId: number,
  wallet: Address,
  at: Pick<StakingSnapshot, "blockNumber" | "blockHash">,
): Promise<StakingHistoryEntry[]> {
  const { client, deployment } = chain();
  return histories.read(client, `${poolId}:${wallet.toLowerCase()}`, at, BigInt(deployment.deployedAtBlock), (from, to) =>
    scanHistory(client, poolId, wallet, from, to),
  );
}

import type { PoolStatus } from "~core/staking";

/**
 * What the loyalty pool page hands the browser-wallet staking island (app/features/staking/staking-panel.client.tsx).
 * Amounts are decimal wei strings, as loader data carries them; the island parses them with BigInt.
 */
export interface StakingPanelProps {
  /** Chain id, node URL, and the FIRE and staking contract addresses. */
  chain: { chainId: number; rpcUrl: string; contracts: { fire: `0x${string}`; staking: `0x${string}` } };
  poolId: number;
  /** The pool's status by the chain's clock when the page was read (core/staking.ts). */
  status: PoolStatus;
  /** When the vault opens (withdrawals), as the page shows it. */
  vaultEnds: string;
  /** The pool's threshold in FIRE wei ("0" when none applies). */
  thresholdWei: string;
  /** The bound wallet's FIRE balance and its stake in this pool, as the server read them. */
  balanceWei: string;
  stakeWei: string;
  account: { loggedIn: boolean; bound: { address: string; bindAddrType: number } | null };
  /** Where to come back after binding a wallet (this page's path). */
  here: string;
  /** Called after a confirmed transaction, to reload the page's data. */
  onConfirmed: () => void;
}

/** The stake pool catalogue of product §3: ids 1–3, each with title, description and reward box. */
export interface StakePoolEntry {
  id: number;
  title: string;
  description: string;
  rewardBoxName: string;
  /** Box type id of the reward (see the loot box catalogue). */
  rewardBoxType: number;
}

export const STAKE_POOLS: readonly StakePoolEntry[] = [
  {
    id: 1,
    title: "Standard Pool",
    description: "Stake FIRE for the vault period and earn a Standard loot box. The entry pool, with the lowest threshold.",
    rewardBoxName: "Standard loot box",
    rewardBoxType: 4,
  },
  {
    id: 2,
    title: "Epic Pool",
    description: "A larger stake and a longer vault earn an Epic loot box with better odds of rare heroes.",
    rewardBoxName: "Epic loot box",
    rewardBoxType: 6,
  },
  {
    id: 3,
    title: "Legendary Pool",
    description: "The highest threshold for the most committed players: the reward is a Legendary loot box.",
    rewardBoxName: "Legendary loot box",
    rewardBoxType: 7,
  },
];

/** The pool with this id, or undefined for anything that is not a known pool id. */
export function findPool(poolId: string | undefined): StakePoolEntry | undefined {
  if (!poolId || !/^\d{1,3}$/.test(poolId)) return undefined;
  return STAKE_POOLS.find((pool) => pool.id === Number(poolId));
}

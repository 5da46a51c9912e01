/** Our deployed contracts by role: what the deployment record lists and every layer that talks to the chain names. */
export interface ContractAddresses {
  fire: `0x${string}`;
  quark: `0x${string}`;
  usdt: `0x${string}`;
  boxSale: `0x${string}`;
  box: `0x${string}`;
  opener: `0x${string}`;
  card: `0x${string}`;
  assetManager: `0x${string}`;
  staking: `0x${string}`;
  starship: `0x${string}`;
  /** SparkItems: the ERC-1155 stacks (materials). */
  items: `0x${string}`;
  /** Trading: signed listings filled on chain, transfers, and sends into another player's game inventory. */
  trading: `0x${string}`;
  /** RewardManager: takes the market's fee and pays signed awards (referral rebates) once each. */
  rewardManager: `0x${string}`;
}

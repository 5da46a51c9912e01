/** Listing data for the view tests: an item with no attribute set, which each test completes. */
import type { StatValues } from "~core/api/market";
import { type ItemCodes, SPACESHIP_STATS } from "~core/nft";

export const NO_CODES: ItemCodes = {
  nftType: 0,
  tokenURI: "/api/v1/metadata/0/1",
  camp: null,
  rarity: null,
  identity: null,
  profession: null,
  material: null,
  level: null,
  pseType: null,
  egseType: null,
  eggType: null,
  rank: null,
  equipmentType: null,
  equipmentCode: null,
  boxType: null,
};

/** Every spaceship stat and the total, unset. */
export const NO_STATS = Object.fromEntries([...SPACESHIP_STATS, "total"].map((stat) => [stat, null])) as StatValues;

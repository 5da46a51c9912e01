/**
 * Off-chain mirror of contracts/src/ItemData.sol: the 96-bit attribute word of a SparkCard token.
 * Byte 0 nftType, byte 1 grade, byte 2 level, then per kind: card camp/identity/profession (bytes 3-5),
 * spaceship stats (bytes 3-9), equipment code (byte 3).
 * In core/ because the wallet islands, the deploy script and the market's chain indexer all decode it.
 */

import { NFT_TYPE, SPACESHIP_STATS, spaceshipTotal, type SpaceshipStats } from "./nft";

/** SparkCard holds these product §3 card type codes (hero cards, spaceships, eggs, equipment, materials). */
export type ItemAttributes =
  | { nftType: typeof NFT_TYPE.card; rarity: number; level: number; camp: number; identity: number; profession: number }
  | { nftType: typeof NFT_TYPE.spaceship; shipType: number; level: number; stats: SpaceshipStats; total: number }
  | { nftType: typeof NFT_TYPE.egg; eggType: number }
  | { nftType: typeof NFT_TYPE.equipment; equipmentType: number; level: number; equipmentCode: number }
  | { nftType: typeof NFT_TYPE.material; material: number }
  | { nftType: number; raw: bigint };

const byteAt = (data: bigint, index: number): number => Number((data >> BigInt(8 * index)) & 0xffn);

const pack = (bytes: readonly number[]): bigint =>
  bytes.reduce((word, value, index) => word | (BigInt(value & 0xff) << BigInt(8 * index)), 0n);

export function decodeItemData(data: bigint): ItemAttributes {
  const nftType = byteAt(data, 0);
  switch (nftType) {
    case NFT_TYPE.card:
      return {
        nftType,
        rarity: byteAt(data, 1),
        level: byteAt(data, 2),
        camp: byteAt(data, 3),
        identity: byteAt(data, 4),
        profession: byteAt(data, 5),
      };
    case NFT_TYPE.spaceship: {
      // Stored in SPACESHIP_STATS order: Endurance, Agility, Pisonic, Strength, Crit, Spirit, Armor.
      const stats = Object.fromEntries(SPACESHIP_STATS.map((name, i) => [name, byteAt(data, 3 + i)])) as SpaceshipStats;
      return { nftType, shipType: byteAt(data, 1), level: byteAt(data, 2), stats, total: spaceshipTotal(stats) };
    }
    case NFT_TYPE.egg:
      return { nftType, eggType: byteAt(data, 1) };
    case NFT_TYPE.equipment:
      return { nftType, equipmentType: byteAt(data, 1), level: byteAt(data, 2), equipmentCode: byteAt(data, 3) };
    case NFT_TYPE.material:
      return { nftType, material: byteAt(data, 1) };
    default:
      return { nftType, raw: data };
  }
}

export const encodeItem = {
  card: (a: { rarity: number; camp: number; identity: number; profession: number; level: number }): bigint =>
    pack([NFT_TYPE.card, a.rarity, a.level, a.camp, a.identity, a.profession]),
  spaceship: (a: { shipType: number; level: number; stats: readonly number[] }): bigint =>
    pack([NFT_TYPE.spaceship, a.shipType, a.level, ...a.stats]),
  equipment: (a: { equipmentType: number; equipmentCode: number; level: number }): bigint =>
    pack([NFT_TYPE.equipment, a.equipmentType, a.level, a.equipmentCode]),
  material: (material: number): bigint => pack([NFT_TYPE.material, material, 0]),
  egg: (eggType: number): bigint => pack([NFT_TYPE.egg, eggType, 0]),
  /** A PSE pass (product §3 PSE types 1-8): its holder pays the sale's PSE price (decision 0018). */
  pse: (pseType: number): bigint => pack([NFT_TYPE.pse, pseType, 0]),
};

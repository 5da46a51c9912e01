/** The JSON shapes the market API answers with, built from rows. Wei is a decimal string, never a number. */
import { NFT_TYPES, type NftTypeCode } from "~core/nft";
import { LISTING_VENUES, LOCATION_NAMES, type ListingRecord, type Trait } from "~core/api/market";
import { tokenUriFor } from "../shared/catalog";
import type { ItemRow } from "../shared/items";
import { readWei } from "../shared/money";

/** An item row with its active listing (if any) joined in. */
export interface ItemListingRow extends ItemRow {
  listing_id: number | null;
  price: string | null;
  currency: string | null;
  listed_at: number | null;
  seller_address: string | null;
  venue: number | null;
  /** What an ERC-1155 chain listing sells of the stack (text, a uint256); null for any other listing. */
  listed_amount: string | null;
}

export function isoTime(ms: number): string;
export function isoTime(ms: number | null): string | null;
export function isoTime(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

export function toRecord(row: ItemListingRow, isFavorite?: boolean): ListingRecord {
  const selling = row.price !== null;
  return {
    tokenId: row.token_id,
    nftType: row.nft_type,
    nftTypeName: NFT_TYPES[row.nft_type as NftTypeCode],
    tokenURI: tokenUriFor(row.nft_type, row.token_id, row.box_type),
    ownerAddress: row.owner_address,
    name: row.name,
    image: row.image,
    amount: row.amount,
    location: LOCATION_NAMES[row.location],
    price: selling ? readWei(row.price!).toString() : null,
    currency: row.currency,
    isSelling: selling,
    venue: selling ? LISTING_VENUES[row.venue ?? 0] : null,
    listedAmount: selling ? row.listed_amount : null,
    sellerAddress: row.seller_address,
    listedAt: isoTime(row.listed_at),
    attributes: JSON.parse(row.attributes) as Trait[],
    camp: row.camp,
    rarity: row.rarity,
    identity: row.identity,
    profession: row.profession,
    material: row.material,
    level: row.level,
    pseType: row.pse_type,
    egseType: row.egse_type,
    eggType: row.egg_type,
    rank: row.spaceship_type,
    equipmentType: row.equipment_type,
    equipmentCode: row.equipment_code,
    boxType: row.box_type,
    endurance: row.endurance,
    agility: row.agility,
    pisonic: row.pisonic,
    strength: row.strength,
    crit: row.crit,
    spirit: row.spirit,
    armor: row.armor,
    total: row.total,
    views: row.views,
    favorites: row.favorites,
    ...(isFavorite === undefined ? {} : { isFavorite }),
  };
}

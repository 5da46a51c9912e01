/** The market's record of a ship as the spaceship views take it (features/spaceship/spaceship-view.ts ShipRecordFacts). */
import type { ListingRecord } from "~core/api/market";
import { SPACESHIP_STATS } from "~core/nft";
import type { ShipRecordFacts } from "./spaceship-view";

export function shipFacts(record: ListingRecord): ShipRecordFacts {
  return {
    tokenId: record.tokenId,
    name: record.name,
    location: record.location,
    rank: record.rank,
    level: record.level,
    total: record.total,
    stats: SPACESHIP_STATS.map((stat) => record[stat]),
  };
}

/** The storehouse's filter: a canonical GET URL a player can bookmark (fixed key order, defaults dropped). Pure and unit-tested. */
import { SPACESHIP_TYPES } from "~core/nft";
import { SHIP_TYPE_MAX, SHIP_TYPE_MIN, type ShipState } from "~core/spaceship";
import { FLEET_SORTS, FLEET_STATUSES, type FleetSort, type ShipStatus } from "./spaceship-labels";
import type { ShipCardView } from "./spaceship-view";

// --- the storehouse's filter: a canonical GET URL (fixed key order, defaults dropped) ---

export interface FleetFilter {
  rank?: number;
  status?: ShipStatus;
  sort: FleetSort;
  order: "desc" | "asc";
}

export const DEFAULT_FLEET_FILTER: FleetFilter = { sort: "power", order: "desc" };

/** Reads the filter from the URL; a value it cannot use is dropped with a notice, never an error page. */
export function parseFleetFilter(search: URLSearchParams): { filter: FleetFilter; notices: string[] } {
  const filter: FleetFilter = { ...DEFAULT_FLEET_FILTER };
  const notices: string[] = [];
  const rank = search.get("rank");
  if (rank) {
    const code = Number(rank);
    if (Number.isInteger(code) && code >= SHIP_TYPE_MIN && code <= SHIP_TYPE_MAX) filter.rank = code;
    else notices.push(`Rank: “${rank.slice(0, 20)}” is not one of 1-4, so every rank is shown.`);
  }
  const status = search.get("status");
  if (status) {
    if ((FLEET_STATUSES as readonly string[]).includes(status)) filter.status = status as ShipStatus;
    else notices.push(`Status: “${status.slice(0, 20)}” is not one of ${FLEET_STATUSES.join(", ")}, so every ship is shown.`);
  }
  const sort = search.get("sort");
  if (sort) {
    if (sort in FLEET_SORTS) filter.sort = sort as FleetSort;
    else notices.push(`Sort: “${sort.slice(0, 20)}” is not one of ${Object.keys(FLEET_SORTS).join(", ")}, so ships are sorted by power.`);
  }
  const order = search.get("order");
  if (order === "asc" || order === "desc") filter.order = order;
  else if (order) notices.push(`Order: “${order.slice(0, 20)}” is not asc or desc, so the highest come first.`);
  return { filter, notices };
}

export function serializeFleetFilter(filter: FleetFilter): string {
  const parts: string[] = [];
  if (filter.rank !== undefined) parts.push(`rank=${filter.rank}`);
  if (filter.status) parts.push(`status=${filter.status}`);
  if (filter.sort !== DEFAULT_FLEET_FILTER.sort) parts.push(`sort=${filter.sort}`);
  if (filter.order !== DEFAULT_FLEET_FILTER.order) parts.push(`order=${filter.order}`);
  return parts.join("&");
}

type SortableShip = { card: ShipCardView; state: ShipState | null };

function sortValue(ship: SortableShip, sort: FleetSort): bigint {
  switch (sort) {
    case "power":
      return ship.state?.power ?? -1n;
    case "level":
      return BigInt(ship.card.level);
    case "total":
      return BigInt(ship.card.total);
    case "duration":
      return ship.state?.duration ?? -1n;
  }
}

/** The ships the filter keeps, in its order (ties by token id, so a page reads the same twice). */
export function applyFleetFilter<T extends SortableShip>(ships: readonly T[], filter: FleetFilter): T[] {
  const kept = ships.filter(
    (ship) =>
      (filter.rank === undefined || SPACESHIP_TYPES[filter.rank as 1] === ship.card.typeName) &&
      (!filter.status || ship.card.status === filter.status),
  );
  const direction = filter.order === "asc" ? 1 : -1;
  return kept.sort((a, b) => {
    const x = sortValue(a, filter.sort);
    const y = sortValue(b, filter.sort);
    if (x !== y) return (x < y ? -1 : 1) * direction;
    return BigInt(a.card.tokenId) < BigInt(b.card.tokenId) ? -1 : 1;
  });
}

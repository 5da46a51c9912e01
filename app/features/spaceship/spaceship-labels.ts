/**
 * The spaceship pages' fixed words that the browser needs (filter options, attribute labels): apart from
 * spaceship-view.ts, so a page's JavaScript carries these few strings and not the rules and formatting.
 */
import { SPACESHIP_STATS } from "~core/nft";

export const STAT_LABELS = ["Endurance", "Agility", "Pisonic", "Strength", "Crit", "Spirit", "Armor"] as const;
export const STAT_KEYS = SPACESHIP_STATS;

export type ShipStatus = "docked" | "exploring" | "needs-repair" | "in-game";
export const FLEET_STATUSES = ["docked", "exploring", "needs-repair", "in-game"] as const satisfies readonly ShipStatus[];
export const SHIP_STATUS_TEXT: Record<ShipStatus, string> = {
  docked: "Docked",
  exploring: "Exploring",
  "needs-repair": "Needs repair",
  "in-game": "In the game",
};

export const FLEET_SORTS = { power: "Power", level: "Level", total: "Total", duration: "Duration left" } as const;
export type FleetSort = keyof typeof FLEET_SORTS;

/** The statistics view's codec: URL ⇄ `StatsFilter` ⇄ the statistics API's query (topNft, activity). */
import { DEFAULT_PAGE } from "~core/constants";
import type { Currency } from "~core/money";
import { CAMPS, EGSE_TYPES, NFT_TYPE, PSE_TYPES, RARITIES, SPACESHIP_TYPES, type NftTypeCode } from "~core/nft";
import {
  FilterParams,
  NFT_TYPE_LABELS,
  type Options,
  type Parsed,
  RESULT_WINDOW,
  STATISTICS_PATH,
  intParser,
  parseCode,
  shown,
} from "./shared";
import type { MarketQuery } from "~/services/market.server";

export const PERIODS = {
  "1d": "Last 24 hours",
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  all: "All time",
} as const;
export type Period = keyof typeof PERIODS;
const DEFAULT_PERIOD: Period = "30d";
/** product §3: the statistics offer levels 1 to 9. */
export const STAT_LEVELS = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;

/** product §3 statistics filters: All or one type, camp, rarity, PSE, EGSE, spaceship kind, level; plus period, currency, page. */
export interface StatsFilter {
  nftType?: NftTypeCode;
  camp?: number;
  rarity?: number;
  pse?: number;
  egse?: number;
  rank?: number;
  level?: number;
  period: Period;
  currency?: Currency;
  page: number;
}

const STAT_ENUMS = {
  camp: { label: "Camp", options: CAMPS, implies: undefined },
  rarity: { label: "Rarity", options: RARITIES, implies: undefined },
  pse: { label: "PSE type", options: PSE_TYPES, implies: NFT_TYPE.pse },
  egse: { label: "EGSE type", options: EGSE_TYPES, implies: NFT_TYPE.egse },
  rank: { label: "Spaceship type", options: SPACESHIP_TYPES, implies: NFT_TYPE.spaceship },
} as const satisfies Record<string, { label: string; options: Options; implies: NftTypeCode | undefined }>;
export type StatEnumKey = keyof typeof STAT_ENUMS;
export const STAT_ENUM_KEYS = Object.keys(STAT_ENUMS) as StatEnumKey[];
export function statEnum(key: StatEnumKey): { label: string; options: Options } {
  return STAT_ENUMS[key];
}

/** Activity pages go this deep at 10 a page. */
const STATS_PAGE_SIZE = 10;

export function parseStatsFilter(search: URLSearchParams): Parsed<StatsFilter> {
  const params = new FilterParams(search);
  const { notices } = params;
  const filter: StatsFilter = { period: DEFAULT_PERIOD, page: DEFAULT_PAGE };
  const nftType = params.nftType();
  if (nftType !== undefined) filter.nftType = nftType;
  for (const key of STAT_ENUM_KEYS) {
    const { label, options } = STAT_ENUMS[key];
    const text = params.one(key, label);
    if (text === undefined) continue;
    const code = parseCode(text, options);
    if (code === undefined) {
      notices.add(`${label}: ${shown(text)} is not a known value, so it was ignored.`);
      continue;
    }
    const implies: NftTypeCode | undefined = STAT_ENUMS[key].implies;
    if (implies !== undefined && filter.nftType === undefined) filter.nftType = implies;
    if (implies !== undefined && filter.nftType !== implies) {
      notices.add(`${label} applies to ${NFT_TYPE_LABELS[implies].toLowerCase()} only, so it was ignored.`);
      continue;
    }
    filter[key] = code;
  }
  const levelText = params.one("level", "Level");
  if (levelText !== undefined) {
    const level = intParser(1, STAT_LEVELS.length)(levelText);
    if (level === undefined) notices.add(`Level: ${shown(levelText)} is not a level from 1 to ${STAT_LEVELS.length}, so it was ignored.`);
    else filter.level = level;
  }
  const period = params.one("period", "Period");
  if (period !== undefined) {
    if (period in PERIODS) filter.period = period as Period;
    else notices.add(`Period: ${shown(period)} is not one of ${Object.keys(PERIODS).join(", ")}, so the last 30 days are shown.`);
  }
  const currency = params.currency();
  if (currency !== undefined) filter.currency = currency;
  const page = params.page(RESULT_WINDOW / STATS_PAGE_SIZE);
  if (page !== undefined) filter.page = page;
  params.rejectRest();
  return { filter, notices: notices.list };
}

export function serializeStatsFilter(filter: StatsFilter): string {
  const parts: string[] = [];
  if (filter.nftType !== undefined) parts.push(`nftType=${filter.nftType}`);
  for (const key of STAT_ENUM_KEYS) if (filter[key] !== undefined) parts.push(`${key}=${filter[key]}`);
  if (filter.level !== undefined) parts.push(`level=${filter.level}`);
  if (filter.period !== DEFAULT_PERIOD) parts.push(`period=${filter.period}`);
  if (filter.currency) parts.push(`currency=${filter.currency}`);
  if (filter.page !== DEFAULT_PAGE) parts.push(`page=${filter.page}`);
  return parts.join("&");
}

export function statsHref(filter: StatsFilter): string {
  const search = serializeStatsFilter(filter);
  return search ? `${STATISTICS_PATH}?${search}` : STATISTICS_PATH;
}

/** The statistics API's query (topNft, activity). */
export function toStatsQuery(filter: StatsFilter, pageSize = STATS_PAGE_SIZE): MarketQuery {
  const query: MarketQuery = { pageNumber: filter.page, pageSize, period: filter.period };
  if (filter.nftType !== undefined) query.nftType = filter.nftType;
  if (filter.camp !== undefined) query.camp = [filter.camp];
  if (filter.rarity !== undefined) query.rarity = [filter.rarity];
  const type = filter.pse ?? filter.egse;
  if (type !== undefined) query.type = [type];
  if (filter.rank !== undefined) query.rank = [filter.rank];
  if (filter.level !== undefined) query.level = [filter.level];
  if (filter.currency) query.currency = filter.currency;
  return query;
}

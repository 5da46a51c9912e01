/** What the fuzzer knows of the market's routes and a player's page: the filters, order proofs and chain orders they read. */
import { LIST_FILTERS, PAGE_SIZES, RANGE_FILTERS, SORT_OPTIONS } from "../../app/features/market/filters/market-options";
import { PERIODS, STAT_ENUM_KEYS, statEnum } from "../../app/features/market/filters/statistics";
import { STORAGE_TABS } from "../../app/features/market/filters/storage";
import { CHAIN_INTENTS } from "../../app/features/market/chain-trade";
import { HISTORY_PERIODS } from "~core/api/market";
import { DEMO_BROWSER_ACCOUNT, DEMO_MANAGED_ACCOUNT } from "~core/demo";
import {
  type Gen,
  address,
  amount,
  currency,
  digits,
  displayName,
  garbage,
  hex,
  mostly,
  nftType,
  oneOf,
  redirect,
  tokenId,
  wei,
} from "./rng";
import { none, type RouteKnowledge } from "./route-knowledge";

const optionValues = (options: Record<number, string>) => [...Object.keys(options), ...Object.values(options)];

const marketQuery: Record<string, Gen> = {
  nftType,
  type: nftType,
  faction: mostly(oneOf("1", "2", "3")),
  currency,
  price: mostly((r) => `${amount(r)},${amount(r)}`),
  sort: mostly((r) => r.pick(SORT_OPTIONS).value),
  order: mostly(oneOf("asc", "desc", "ASC", "up")),
  pageSize: mostly((r) => String(r.pick(PAGE_SIZES))),
  page: mostly(digits(6)),
  pageNumber: mostly(digits(6)),
  // Issue 30: the price history's period.
  period: mostly(oneOf(...HISTORY_PERIODS, "1y", "ALL")),
  ...Object.fromEntries(
    Object.entries(LIST_FILTERS).map(([key, spec]) => [key, mostly((r) => r.sample(optionValues(spec.options), r.int(1, 3)).join(","))]),
  ),
  ...Object.fromEntries(
    Object.entries(RANGE_FILTERS).map(([key, spec]) => [
      key,
      mostly((r) => `${r.int(spec.min - 1, spec.max + 1)},${r.chance(0.3) ? "" : r.int(spec.min, spec.max)}`),
    ]),
  ),
};

const statsQuery: Record<string, Gen> = {
  nftType,
  level: mostly(digits(2)),
  period: mostly(oneOf(...Object.keys(PERIODS))),
  currency,
  page: mostly(digits(6)),
  ...Object.fromEntries(STAT_ENUM_KEYS.map((key) => [key, mostly((r) => r.pick(optionValues(statEnum(key).options)))])),
};

const storageQuery: Record<string, Gen> = { tab: mostly(oneOf(...Object.keys(STORAGE_TABS))), nftType, page: mostly(digits(6)) };

/** Order proof fields a browser wallet adds to trade forms. */
const proof: Record<string, Gen> = {
  nonce: mostly(digits(78)),
  expiry: mostly(digits(13)),
  signature: hex(65),
  chainId: mostly(oneOf("31337", "56", "0")),
};

/** A chain listing's JSON as the buyer's confirmation posts it: the right shape with drawn fields, or its fields broken. */
const chainOrder: Gen = (r) =>
  JSON.stringify({
    orderHash: hex(32)(r),
    seller: address(r),
    collection: address(r),
    standard: r.pick([0, 1, 2, -1, "0"]),
    tokenId: mostly(digits(78))(r),
    amount: mostly(oneOf("1", "0", "2"))(r),
    currency: address(r),
    price: wei(r),
    expiry: mostly(digits(13))(r),
    salt: mostly(digits(78))(r),
    counter: mostly(digits(3))(r),
    signature: hex(65)(r),
    ...(r.chance(0.1) ? { extra: garbage(r) } : {}),
  });

export const MARKET_ROUTES: RouteKnowledge = {
  "routes/marketplace": none,
  "routes/marketplace._index": none,
  "routes/marketplace.detail": {
    query: { tokenId, nftType, back: redirect, period: mostly(oneOf(...HISTORY_PERIODS, "1y")) },
    form: {
      intent: mostly(
        oneOf(
          "sell",
          "cancel",
          "transfer",
          "confirm-buy",
          "buy",
          // Issue 28: the chain forms of a chain-held item.
          ...CHAIN_INTENTS,
        ),
      ),
      price: amount,
      currency,
      days: mostly(oneOf("1", "3", "7", "30", "0", "180", "181", "365", "2.5")),
      to: address,
      account: address,
      priceWei: wei,
      listingId: mostly(digits(6)),
      confirmed: mostly(oneOf("1", "0")),
      salt: mostly(digits(78)),
      counter: mostly(digits(78)),
      order: mostly(chainOrder),
      idempotencyKey: mostly((r) => r.string(r.int(1, 120), "abcXYZ019_-")),
      ...proof,
    },
  },
  "routes/marketplace.favorite": {
    form: { tokenId, nftType, intent: mostly(oneOf("add", "remove")), redirectTo: redirect, mode: mostly(oneOf("fetch")) },
  },
  "routes/marketplace.market": { query: marketQuery },
  // Issue 30: watched searches, their inbox and the email's unsubscribe link.
  "routes/marketplace.inbox": none,
  "routes/marketplace.watches": {
    form: {
      intent: mostly(oneOf("add", "remove")),
      search: mostly(oneOf("", "nftType=4", "nftType=4&rarity=3&price=1,50&currency=FIRE", "nftType=99&level=x", "?a#b")),
      ceiling: amount,
      currency,
      id: mostly(digits(6)),
    },
  },
  "routes/marketplace.watches_.unsubscribe": {
    query: { token: mostly((r) => `${r.int(0, 99)}.${r.string(43, "abcXYZ019_-")}`) },
    form: { token: mostly((r) => `${r.int(0, 99)}.${r.string(43, "abcXYZ019_-")}`) },
  },
  // Issue 30: the offers page takes an item or a market view; its action is every offer form's.
  "routes/marketplace.offers": {
    query: { tokenId, nftType, ...marketQuery },
    form: {
      intent: mostly(oneOf("offer", "offer-cancel", "offer-cancel-all", "offer-accept")),
      price: amount,
      currency,
      days: mostly(oneOf("1", "3", "7", "30", "0", "31", "2.5")),
      offerId: mostly(digits(6)),
      tokenId,
      nftType,
      counter: mostly(digits(78)),
      back: redirect,
      ...proof,
    },
  },
  "routes/marketplace.statistics": { query: statsQuery },
  "routes/marketplace.storage": {
    query: storageQuery,
    form: { intent: mostly(oneOf("cancel-all")), counter: mostly(digits(78)), ...proof },
  },
  // Issue 29: a player's page takes the market's filter; its path names a wallet, a player's or anyone's, in any case.
  "routes/player.$address": {
    params: {
      address: mostly((r) =>
        r.pick([DEMO_BROWSER_ACCOUNT.wallet, DEMO_MANAGED_ACCOUNT.wallet.toLowerCase(), address(r), address(r).toUpperCase(), "0x"]),
      ),
    },
    query: marketQuery,
    // Issue 42: the player's own page sets or removes their display name.
    form: { intent: mostly(oneOf("save-name", "clear-name")), displayName },
  },
};

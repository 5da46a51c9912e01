/**
 * Watched searches (issue 30): what matching adds to writing a listing. 10,000 watches of varied filters (nft type,
 * grade, currency, ceiling, levels, the way collectors watch) on a generated market, then 1,000 new listings, each
 * written and matched in its own transaction as a sell does. Prints the matching time per listing (mean, p50, p95)
 * and the alerts stored; exits non-zero when the mean reaches 1 ms.
 *   npx tsx tests/bench/watches.ts [--watches 10000] [--listings 1000]
 */
import { parseArgs } from "node:util";
import { CURRENCIES } from "~core/money";
import { NFT_TYPES, type NftTypeCode } from "~core/nft";
import { openDatabase } from "../../backend/schema";
import { GRADE_COLUMNS } from "../../backend/market/shared/catalog";
import { MarketDb } from "../../backend/market/shared/db";
import { drawPrice, generateMarket, prng } from "../../backend/market/generate";
import { type ItemRow, insertListing } from "../../backend/market/shared/items";
import { LIST_FILTERS } from "../../backend/market/shared/listing-schemas";
import { demoMarketOptions } from "../../backend/market/seed";
import { addWatch, matchWatches, storeAlerts } from "../../backend/market/watches/watches";

const MAX_MEAN_MS = 1;
const { values } = parseArgs({ options: { watches: { type: "string", default: "10000" }, listings: { type: "string", default: "1000" } } });
const WATCHES = Number(values.watches);
const LISTINGS = Number(values.listings);
const PER_USER = 50;
const TYPES = Object.keys(NFT_TYPES).map(Number) as NftTypeCode[];

const store = await openDatabase(":memory:");
const db = new MarketDb(store);
const rng = prng(30_001);
await generateMarket(db, { ...demoMarketOptions(Date.now()), items: LISTINGS + 500, activeListings: 0, sales: 0, cancels: 0, invitees: 0 });

/**
 * A collector's filter: a type and mostly its grade, levels, and mostly a currency with a ceiling near what such
 * items cost; one in ten watches a whole type or grade in any currency (those match far more listings).
 */
function randomQuery(): { query: Record<string, unknown>; currency?: string; ceiling?: bigint } {
  const nftType = TYPES[rng.int(0, TYPES.length - 1)];
  const query: Record<string, unknown> = { nftType: String(nftType) };
  const filter = GRADE_COLUMNS[nftType].filter;
  const codes = LIST_FILTERS[filter];
  if (rng.next() < 0.85 && codes.length) query[filter] = String(codes[rng.int(0, codes.length - 1)]);
  if (rng.next() < 0.1) return { query };
  const level = rng.int(1, 9);
  query.min = { level: String(level) };
  query.max = { level: String(level + 1) };
  const currency = CURRENCIES[rng.int(0, CURRENCIES.length - 1)];
  return { query, currency, ceiling: ceilings.get(currency)![rng.int(0, 99)] };
}

/** Prices the generator asks in each currency, a hundred of each: ceilings collectors would set. */
const sample = await db.all<ItemRow>("select * from market_items order by id limit 100");
const ceilings = new Map(CURRENCIES.map((currency) => [currency, sample.map((item) => drawPrice(rng, item, currency))]));

const setupStart = performance.now();
await db.write(async (tx) => {
  for (let i = 0; i < WATCHES; i++) {
    const { query, currency, ceiling } = randomQuery();
    try {
      await addWatch(
        tx,
        `collector${Math.floor(i / PER_USER)}@bench.test`,
        { search: `w=${i}`, label: `Watch ${i}`, query, currency, ceiling },
        Date.now(),
      );
    } catch {
      // A duplicate or a contradiction: another draw.
      i--;
    }
  }
});
console.log(`${WATCHES} watches stored in ${((performance.now() - setupStart) / 1000).toFixed(1)} s`);

const items = await db.all<ItemRow>(
  `select * from market_items i where location = 0
     and not exists (select 1 from market_listings l where l.item_id = i.id and l.status = 0) order by id limit ?`,
  [LISTINGS],
);
// What a sell pays on top of writing its listing: finding the watches it matches, then storing their alerts.
const matchTimes: number[] = [];
const totalTimes: number[] = [];
let alerts = 0;
for (const item of items) {
  const currency = CURRENCIES[rng.int(0, CURRENCIES.length - 1)];
  await db.write(async (tx) => {
    const price = drawPrice(rng, item, currency);
    const listingId = (await insertListing(tx, item, { seller: item.owner_address, price, currency, listedAt: Date.now() }))!;
    const start = performance.now();
    const matched = (await matchWatches(tx, listingId))!;
    matchTimes.push(performance.now() - start);
    alerts += await storeAlerts(tx, matched.listing, matched.watches, Date.now());
    totalTimes.push(performance.now() - start);
  });
}
await store.close();

function figures(times: number[]) {
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  const mean = times.reduce((sum, t) => sum + t, 0) / times.length;
  return { mean, text: `mean ${mean.toFixed(3)} ms, p50 ${at(0.5).toFixed(3)} ms, p95 ${at(0.95).toFixed(3)} ms` };
}
const match = figures(matchTimes);
const total = figures(totalTimes);
console.log(`${items.length} new listings against ${WATCHES} watches, per listing:`);
console.log(`  finding the matching watches: ${match.text}`);
console.log(`  with storing their alerts:     ${total.text} (${(alerts / items.length).toFixed(1)} alerts a listing, ${alerts} in all)`);
if (total.mean >= MAX_MEAN_MS) {
  console.error(`over budget: ${total.mean.toFixed(3)} ms ≥ ${MAX_MEAN_MS} ms per listing`);
  process.exit(1);
}

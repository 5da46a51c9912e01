/**
 * Deterministic market data: the demo seed (a few thousand items) and the benchmark data sets (millions)
 * come from this one generator, so the bench measures the data shape the demo shows.
 * Same seed, same data (times are relative to `now`). Writes go through the ledger's own insert helpers
 * in large transactions.
 */
import { getAddress } from "viem";
import { NFT_TYPE, spaceshipTotal, type SpaceshipStats } from "~core/nft";
import { EGG_CAMPS, imageFor, itemName, traitsOf } from "./shared/catalog";
import type { MarketDb, Sql } from "./shared/db";
import { accrueRebates, addDailyVolume, recordActivity } from "./shared/activity";
import { ATTRIBUTE_COLUMN_NAMES, type ItemRow, insertListing } from "./shared/items";
import { credit } from "./shared/ledger";
import { drawInviteCode } from "./invites";
import { CURRENCIES, type Currency, WEI_PER_TOKEN } from "~core/money";
import { GAME_TOKEN_ID_BASE } from "~core/constants";
import { ACTIVITY_KIND, type ItemAttributeColumns, LISTING_STATUS, LOCATION } from "./shared/tables";
import type { Address } from "./shared/params";

export interface GenerateOptions {
  seed: number;
  /** Reference time (ms): history lies in the `historyDays` before it. */
  now: number;
  items: number;
  /** Active listings (exact, as long as items suffice). */
  activeListings: number;
  /** Past sales (each also logs its listing). */
  sales: number;
  /** Past cancelled listings. */
  cancels: number;
  /** Mean favorites per item. */
  favoritesPerItem: number;
  /** Total wallets, the demo wallets included. */
  wallets: number;
  demoWallets: readonly Address[];
  /** Items of each NFT type every demo wallet owns; one of each type is listed. */
  demoItemsPerType: number;
  historyDays: number;
  /** Wallets that joined through an invite. */
  invitees: number;
  /** Invite pairs that must exist, e.g. one demo wallet inviting another. */
  fixedInvites?: readonly { inviter: Address; invitee: Address }[];
  /** Generous game balances for these wallets (tokens, not wei). */
  richBalances?: Partial<Record<Currency, number>>;
  onProgress?: (itemsDone: number) => void;
}

/** mulberry32: tiny, fast and good enough for demo data. */
export function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const weighted = <T>(values: readonly T[], weights: readonly number[]) => {
    const sum = weights.reduce((a, b) => a + b, 0);
    let r = next() * sum;
    for (let i = 0; i < values.length; i++) {
      r -= weights[i];
      if (r < 0) return values[i];
    }
    return values[values.length - 1];
  };
  return { next, int, weighted, pick: <T>(values: readonly T[]) => values[Math.floor(next() * values.length)] };
}
type Rng = ReturnType<typeof prng>;

const DAY = 86_400_000;
const TYPE_WEIGHTS = [30, 5, 10, 8, 13, 7, 9, 13, 5];
const ALL_TYPES = [0, 1, 2, 3, 4, 5, 6, 7, 8];
const CURRENCY_WEIGHTS = [45, 20, 25, 10];
const BOX_TYPE_LIST = [4, 5, 6, 7, 17, 18];
const BOX_USD: Record<number, number> = { 4: 20, 5: 60, 6: 150, 7: 400, 17: 900, 18: 250 };
/** Rough token prices in milli-USD, to make listing prices look plausible in every currency. */
const TOKEN_MILLI_USD: Record<Currency, number> = { FIRE: 20, QUARK: 500, USDT: 1000, BNB: 600_000 };
const GRADE_USD: readonly [number, number][] = [
  [5, 30],
  [30, 150],
  [150, 800],
  [800, 5000],
];

function level(rng: Rng): number {
  return 1 + Math.floor(10 * rng.next() ** 1.6);
}

const NO_ATTRIBUTES = Object.fromEntries(ATTRIBUTE_COLUMN_NAMES.map((name) => [name, null])) as unknown as ItemAttributeColumns;

/** Attribute columns of a new item of `nftType`, drawn from the product §3 enumerations. */
export function drawAttributes(nftType: number, rng: Rng): ItemAttributeColumns {
  const c: ItemAttributeColumns = { ...NO_ATTRIBUTES };
  const rarity = () => rng.weighted([0, 1, 2, 3], [55, 30, 12, 3]);
  switch (nftType) {
    case NFT_TYPE.card:
      c.camp = rng.int(0, 3);
      c.rarity = rarity();
      c.identity = rng.weighted([0, 1, 2, 3, 4], [5, 10, 15, 30, 40]);
      c.profession = rng.int(0, 4);
      c.level = level(rng);
      break;
    case NFT_TYPE.halloween:
      c.rarity = rarity();
      c.level = rng.int(1, 5);
      break;
    case NFT_TYPE.pse:
      c.pse_type = rng.weighted([1, 2, 3, 4, 5, 6, 7, 8], [20, 18, 15, 12, 5, 10, 12, 8]);
      c.level = level(rng);
      break;
    case NFT_TYPE.egse:
      c.egse_type = rng.weighted([1, 2, 3], [60, 30, 10]);
      c.level = level(rng);
      break;
    case NFT_TYPE.spaceship: {
      const rank = rng.weighted([1, 2, 3, 4], [50, 30, 15, 5]);
      c.spaceship_type = rank;
      c.camp = rng.int(0, 3);
      c.level = level(rng);
      const stat = () => rng.int(8 * rank + 2, 8 * rank + 30) + 2 * (c.level ?? 1);
      const stats: SpaceshipStats = {
        endurance: stat(),
        agility: stat(),
        pisonic: stat(),
        strength: stat(),
        crit: stat(),
        spirit: stat(),
        armor: stat(),
      };
      Object.assign(c, stats);
      c.total = spaceshipTotal(stats);
      break;
    }
    case NFT_TYPE.egg:
      c.egg_type = rng.int(1, 3);
      c.camp = EGG_CAMPS[c.egg_type];
      break;
    case NFT_TYPE.lootbox:
      c.box_type = rng.weighted(BOX_TYPE_LIST, [35, 25, 15, 10, 5, 10]);
      break;
    case NFT_TYPE.equipment:
      c.equipment_type = rng.weighted([1, 2, 3, 4], [50, 30, 15, 5]);
      c.equipment_code = rng.int(1, 17);
      c.level = level(rng);
      break;
    case NFT_TYPE.material:
      c.material = rng.weighted([0, 1, 2], [60, 30, 10]);
      break;
  }
  return c;
}

/** A plausible price in wei: by grade and level (or box type), in `currency`, rounded to 3 significant digits. */
/** A drawn price's scale for a stack of `amount` (demo stacks hold 5..500, so a float of it is exact). */
function stackFactor(amount: string): number {
  const units = Number(amount);
  return units > 1 ? units / 50 : 1;
}

export function drawPrice(rng: Rng, item: ItemRow, currency: Currency): bigint {
  let usd: number;
  if (item.nft_type === NFT_TYPE.lootbox) {
    usd = BOX_USD[item.box_type ?? 4] * (0.8 + 0.4 * rng.next());
  } else {
    const grade = Math.max(item.rarity ?? 0, (item.spaceship_type ?? 1) - 1, (item.equipment_type ?? 1) - 1, item.material ?? 0);
    const [lo, hi] = GRADE_USD[Math.min(grade, 3)];
    usd = (lo + (hi - lo) * rng.next()) * (1 + ((item.level ?? 1) - 1) * 0.15) * stackFactor(item.amount);
  }
  const milliTokens = (usd * 1_000_000) / TOKEN_MILLI_USD[currency];
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(milliTokens)) - 2);
  const rounded = BigInt(Math.max(1, Math.round(milliTokens / magnitude) * magnitude));
  return (rounded * WEI_PER_TOKEN) / 1000n;
}

/** Deterministic wallet addresses: random 20 bytes, checksummed (no key pairs: owners only, never signers). */
function drawWallet(rng: Rng): Address {
  let hex = "0x";
  for (let i = 0; i < 5; i++)
    hex += Math.floor(rng.next() * 2 ** 32)
      .toString(16)
      .padStart(8, "0");
  return getAddress(hex);
}

const ITEM_INSERT = `insert into market_items (
  nft_type, token_id, owner_address, location, name, image, amount, attributes, views, favorites, created_at, updated_at,
  ${ATTRIBUTE_COLUMN_NAMES.join(", ")}
) values (${Array(12 + ATTRIBUTE_COLUMN_NAMES.length)
  .fill("?")
  .join(", ")}) returning id`;

export interface GenerateResult {
  items: number;
  activeListings: number;
  sales: number;
  cancels: number;
  favorites: number;
  wallets: number;
}

/** Writes a whole market, in transactions of CHUNK items. Call on an empty market. */
export async function generateMarket(market: MarketDb, o: GenerateOptions): Promise<GenerateResult> {
  const rng = prng(o.seed);
  const wallets: Address[] = [...o.demoWallets];
  const seen = new Set(wallets.map((w) => w.toLowerCase()));
  while (wallets.length < o.wallets) {
    const wallet = drawWallet(rng);
    if (!seen.has(wallet.toLowerCase())) {
      seen.add(wallet.toLowerCase());
      wallets.push(wallet);
    }
  }
  const others = wallets.slice(o.demoWallets.length);
  const randomOwner = () => (others.length ? others[Math.floor(others.length * rng.next() ** 1.5)] : rng.pick(wallets));
  const otherThan = (address: string) => {
    for (;;) {
      const wallet = rng.pick(wallets);
      if (wallet !== address) return wallet;
    }
  };
  const historyStart = o.now - o.historyDays * DAY;
  const result: GenerateResult = { items: 0, activeListings: 0, sales: 0, cancels: 0, favorites: 0, wallets: wallets.length };

  await market.write(async (db) => {
    // Invites first: sales accrue rebates to the inviters.
    const codes = new Map<string, string>();
    const inviters = [...o.demoWallets, ...others.slice(0, Math.max(1, Math.floor(others.length / 10)))];
    for (const wallet of inviters) {
      let code = drawInviteCode(rng.next);
      while ([...codes.values()].includes(code)) code = drawInviteCode(rng.next);
      codes.set(wallet, code);
      await db.run("insert into market_invite_codes (code, address, created_at) values (?, ?, ?)", [code, wallet, historyStart - 30 * DAY]);
    }
    const invite = (inviter: string, invitee: string) =>
      db.run("insert into market_invites (invitee_address, inviter_address, code, created_at) values (?, ?, ?, ?) on conflict do nothing", [
        invitee,
        inviter,
        codes.get(inviter)!,
        historyStart - rng.int(1, 30) * DAY,
      ]);
    for (const pair of o.fixedInvites ?? []) await invite(pair.inviter, pair.invitee);
    const candidates = others.slice(inviters.length - o.demoWallets.length);
    for (let i = 0; i < Math.min(o.invitees, candidates.length); i++) {
      // The first demo wallet invites the first few, so its invite page has something to show.
      await invite(i < 5 && o.demoWallets.length ? o.demoWallets[0] : rng.pick(inviters), candidates[i]);
    }

    for (const wallet of wallets) {
      const rich = o.demoWallets.includes(wallet) ? o.richBalances : undefined;
      for (const currency of CURRENCIES) {
        const tokens =
          rich?.[currency] ??
          { FIRE: rng.int(500, 200_000), QUARK: rng.int(10, 20_000), USDT: rng.int(10, 10_000), BNB: rng.int(0, 20) }[currency];
        if (tokens > 0) await credit(db, wallet, currency, BigInt(tokens) * WEI_PER_TOKEN);
      }
    }
  });

  const demoBlock = o.demoWallets.length * ALL_TYPES.length * o.demoItemsPerType;
  let listed = 0;
  let sold = 0;
  let cancelled = 0;
  const CHUNK = 20_000;
  for (let start = 0; start < o.items; start += CHUNK) {
    await market.write(async (db) => {
      for (let i = start; i < Math.min(o.items, start + CHUNK); i++) {
        const remaining = o.items - i;
        const inDemo = i < demoBlock;
        const nftType = inDemo ? Math.floor(i / o.demoItemsPerType) % ALL_TYPES.length : rng.weighted(ALL_TYPES, TYPE_WEIGHTS);
        const owner = inDemo ? o.demoWallets[Math.floor(i / (o.demoItemsPerType * ALL_TYPES.length))] : randomOwner();
        // Game ids, one sequence over all types: disjoint from chain mints (GAME_TOKEN_ID_BASE).
        const tokenId = String(GAME_TOKEN_ID_BASE + i + 1);

        const columns = drawAttributes(nftType, rng);
        const amount = BigInt(nftType === NFT_TYPE.material ? rng.int(5, 500) : 1);
        const listNow = inDemo ? i % o.demoItemsPerType === 0 : rng.next() < (o.activeListings - listed) / remaining;
        const hadSale = rng.next() < (o.sales - sold) / remaining;
        const hadCancel = rng.next() < (o.cancels - cancelled) / remaining;
        const onChain = !listNow && !inDemo && rng.next() < 0.04;
        // History in time order: bought, then a cancelled listing, then the current listing.
        const tSale = historyStart + rng.next() * (o.now - historyStart);
        const tCancel = (hadSale ? tSale : historyStart) + rng.next() * (o.now - (hadSale ? tSale : historyStart));
        const after = hadCancel ? tCancel : hadSale ? tSale : o.now - 30 * DAY;
        const tList = after + rng.next() * (o.now - after);
        const createdAt = historyStart - rng.int(1, 180) * DAY;

        const favoriteCount = Math.floor(-Math.log(1 - rng.next()) * o.favoritesPerItem);
        const fans = new Set<string>();
        for (let f = 0; f < favoriteCount; f++) fans.add(rng.pick(wallets));
        // Demo wallets like a few things too, so their favorites page is not empty.
        if (o.demoWallets.length && rng.next() < 0.01) fans.add(rng.pick(o.demoWallets));
        const item: ItemRow = {
          id: 0,
          nft_type: nftType,
          token_id: tokenId,
          owner_address: owner,
          location: onChain ? LOCATION.chain : LOCATION.game,
          name: itemName(nftType, tokenId, columns, amount),
          image: imageFor(nftType, columns),
          amount: amount.toString(),
          attributes: JSON.stringify(traitsOf(nftType, columns, amount)),
          views: Math.floor(rng.next() ** 3 * 2000),
          favorites: fans.size,
          created_at: createdAt,
          updated_at: createdAt,
          ...columns,
        };
        item.id = (await db.get<{ id: number }>(ITEM_INSERT, [
          item.nft_type,
          item.token_id,
          item.owner_address,
          item.location,
          item.name,
          item.image,
          item.amount,
          item.attributes,
          item.views,
          item.favorites,
          item.created_at,
          item.updated_at,
          ...ATTRIBUTE_COLUMN_NAMES.map((name) => item[name]),
        ]))!.id;
        for (const fan of fans) {
          await db.run("insert into market_favorites (address, item_id, created_at) values (?, ?, ?)", [fan, item.id, createdAt + DAY]);
        }
        result.favorites += fans.size;

        if (hadSale) {
          const seller = otherThan(owner);
          const currency = rng.weighted(CURRENCIES, CURRENCY_WEIGHTS);
          const price = drawPrice(rng, item, currency);
          const listedAt = Math.round(tSale - rng.next() * 3 * DAY);
          const saleAt = Math.round(tSale);
          const listingId = await insertListing(db, item, {
            seller,
            price,
            currency,
            listedAt,
            status: LISTING_STATUS.sold,
            buyer: owner,
            closedAt: saleAt,
          });
          await recordActivity(db, { kind: ACTIVITY_KIND.list, item, listingId, from: seller, price, currency, at: listedAt });
          const activityId = await recordActivity(db, {
            kind: ACTIVITY_KIND.sale,
            item,
            listingId,
            from: seller,
            to: owner,
            price,
            currency,
            at: saleAt,
          });
          await addDailyVolume(db, saleAt, nftType, currency, price, listingId);
          await accrueRebates(db, activityId, [owner, seller], currency, price, saleAt);
          sold++;
        }
        if (hadCancel) {
          const currency = rng.weighted(CURRENCIES, CURRENCY_WEIGHTS);
          const price = drawPrice(rng, item, currency);
          const listedAt = Math.round(tCancel);
          const closedAt = Math.round(tCancel + rng.next() * (tList - tCancel));
          const listingId = await insertListing(db, item, {
            seller: owner,
            price,
            currency,
            listedAt,
            status: LISTING_STATUS.cancelled,
            closedAt,
          });
          await recordActivity(db, { kind: ACTIVITY_KIND.list, item, listingId, from: owner, price, currency, at: listedAt });
          await recordActivity(db, { kind: ACTIVITY_KIND.cancel, item, listingId, from: owner, price, currency, at: closedAt });
          cancelled++;
        }
        if (listNow) {
          const currency = rng.weighted(CURRENCIES, CURRENCY_WEIGHTS);
          const price = drawPrice(rng, item, currency);
          const listedAt = Math.round(tList);
          const listingId = await insertListing(db, item, { seller: owner, price, currency, listedAt });
          await recordActivity(db, { kind: ACTIVITY_KIND.list, item, listingId, from: owner, price, currency, at: listedAt });
          listed++;
        }
      }
    });
    o.onProgress?.(Math.min(o.items, start + CHUNK));
  }
  Object.assign(result, { items: o.items, activeListings: listed, sales: sold, cancels: cancelled });
  return result;
}

/** Refreshes the planner's statistics after a bulk load, so it picks the selective index for each filter. */
export async function analyze(db: Sql): Promise<void> {
  // SQLite samples this many rows per index (unbounded by default, which takes seconds at 1M rows).
  if (db.engine === "sqlite") await db.run("pragma analysis_limit = 2000");
  for (const table of ["market_items", "market_listings", "market_activity", "market_favorites"]) await db.run(`analyze ${table}`);
}

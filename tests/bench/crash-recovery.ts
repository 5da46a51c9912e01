/**
 * R3 of issue 10: kill -9 under a burst of trades, then restart on the same data. Two managed-wallet demo
 * accounts list and buy each other's items through the detail page's action (as browsers without JavaScript
 * do), several at a time, on a server of its own; mid-burst the server gets SIGKILL. Then:
 *   - the database is intact after the kill, after the restart and after a clean stop: SQLite's
 *     `PRAGMA integrity_check`, or on PostgreSQL amcheck's `bt_index_check` of every index of the backends' tables;
 *   - every trade a client saw confirmed (the action's success redirect) is in the ledger, by the market API;
 *   - the FIRE of all game balances adds up to what it was before the trading.
 * Two rounds, so the restarted server is killed too. Prints the figures; exits 1 on any loss.
 *   npx tsx tests/bench/crash-recovery.ts [--rounds 2] [--workers 8] [--engine sqlite|postgres]
 * With `--engine postgres` the backends run on a throwaway cluster this script starts (decision 0011), outside the
 * server it kills, so the restart finds the same database.
 * Its server runs on CRASH_PORT (3393) with its chain on CRASH_CHAIN_PORT (8693); the build is made when missing.
 */
import path from "node:path";
import { cliOptions } from "../../scripts/cli-options";
import Database from "better-sqlite3";
import pg from "pg";
import { getAddress } from "viem";
import { DEMO_BUYER_ACCOUNT, DEMO_MANAGED_ACCOUNT, DEMO_PASSWORD } from "~core/demo";
import { stopStaleChain } from "../../contracts/chain";
import { appLogin, getPage, hiddenForm, ownedItems, postForm, tokenDetail } from "../fuzz/client";
import { ensureBuild, startServer, stopServer } from "../fuzz/server";
import { CLUSTER_URL_ENV, createTestDatabase, startPostgresCluster } from "../support/postgres";
import { WEI_PER_TOKEN } from "~core/money";

const values = cliOptions({ rounds: "2", workers: "8", engine: "sqlite" });
if (values.engine !== "sqlite" && values.engine !== "postgres") throw new Error("--engine: expected sqlite or postgres");
const ROUNDS = Number(values.rounds);
const WORKERS = Number(values.workers);
const PORT = Number(process.env.CRASH_PORT ?? 3393);
const CHAIN_PORT = Number(process.env.CRASH_CHAIN_PORT ?? 8693);
/** The market API shows an item's last 10 events; an item takes at most this many confirmed ones per round. */
const EVENTS_PER_ITEM = 8;

type Party = "managed" | "buyer";
const WALLETS: Record<Party, `0x${string}`> = { managed: DEMO_MANAGED_ACCOUNT.wallet, buyer: DEMO_BUYER_ACCOUNT.wallet };
const EMAILS: Record<Party, string> = { managed: DEMO_MANAGED_ACCOUNT.email, buyer: DEMO_BUYER_ACCOUNT.email };
const other = (party: Party): Party => (party === "managed" ? "buyer" : "managed");

interface Item {
  tokenId: string;
  nftType: number;
  owner: Party;
  /** The price (wei) it is listed at, as the last confirmed answer left it. */
  listed: bigint | null;
  busy: boolean;
  /** A request about it got no answer (the kill): its state is unknown until the ledger is read again. */
  unsure: boolean;
  events: number;
}

interface Trade {
  round: number;
  tokenId: string;
  nftType: number;
  event: "list" | "sale";
  price: bigint;
  seller: `0x${string}`;
  buyer?: `0x${string}`;
}

const WEI = WEI_PER_TOKEN;
let priceCounter = 0;
/** Every listing gets its own price (1.000001 FIRE, 1.000002 FIRE, …), so each trade is found by its price. */
function nextPrice(): { text: string; wei: bigint } {
  priceCounter += 1;
  return { text: `1.${String(priceCounter).padStart(6, "0")}`, wei: WEI + BigInt(priceCounter) * 10n ** 12n };
}

/** The killed server's database, read from outside the server: its integrity and the FIRE of all game balances. */
interface Ledger {
  integrity(): Promise<string>;
  fireTotal(): Promise<bigint>;
}

const sumFire = (rows: { amount: string }[]) => rows.reduce((sum, row) => sum + BigInt(row.amount), 0n);
const FIRE_AMOUNTS = "select amount from market_balances where currency = 'FIRE'";

function sqliteLedger(file: string): Ledger {
  const open = <T>(read: (db: Database.Database) => T): T => {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return read(db);
    } finally {
      db.close();
    }
  };
  return {
    integrity: async () =>
      open((db) => (db.pragma("integrity_check") as { integrity_check: string }[]).map((row) => row.integrity_check).join("; ")),
    fireTotal: async () => open((db) => sumFire(db.prepare(FIRE_AMOUNTS).all() as { amount: string }[])),
  };
}

function postgresLedger(url: string): Ledger {
  const query = async <T extends pg.QueryResultRow>(text: string): Promise<T[]> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<T>(text)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    // bt_index_check verifies each B-tree index's ordering invariants page by page; it raises on corruption.
    async integrity() {
      await query("create extension if not exists amcheck");
      try {
        const [{ checked }] = await query<{ checked: number }>(
          `select count(bt_index_check(c.oid)) as checked from pg_index i join pg_class c on c.oid = i.indexrelid
             join pg_am a on a.oid = c.relam where a.amname = 'btree' and c.relnamespace = 'public'::regnamespace`,
        );
        return checked > 0 ? "ok" : "no index checked";
      } catch (error) {
        return (error as Error).message;
      }
    },
    fireTotal: async () => sumFire(await query<{ amount: string }>(FIRE_AMOUNTS)),
  };
}

async function loadItems(baseUrl: string): Promise<Item[]> {
  const items: Item[] = [];
  for (const party of ["managed", "buyer"] as const) {
    for (let nftType = 0; nftType <= 8; nftType++) {
      for (const owned of await ownedItems(baseUrl, WALLETS[party], nftType)) {
        if (owned.location !== "game") continue;
        const detail = await tokenDetail(baseUrl, owned);
        items.push({
          tokenId: owned.tokenId,
          nftType,
          owner: party,
          listed: detail.listing ? BigInt(detail.listing.price) : null,
          busy: false,
          unsure: false,
          events: 0,
        });
      }
    }
  }
  return items;
}

async function signIn(baseUrl: string): Promise<Record<Party, string>> {
  return { managed: await appLogin(baseUrl, EMAILS.managed, DEMO_PASSWORD), buyer: await appLogin(baseUrl, EMAILS.buyer, DEMO_PASSWORD) };
}

/**
 * Trades until `stop()` says so: each worker takes an idle item and does its next step (its owner lists it, or
 * the other party buys it through the confirmation page). Only a success redirect counts as confirmed.
 */
async function burst(
  baseUrl: string,
  round: number,
  items: Item[],
  cookies: Record<Party, string>,
  confirmed: Trade[],
  stop: () => boolean,
) {
  const detailUrl = (item: Item) => `/marketplace/detail?tokenId=${item.tokenId}&nftType=${item.nftType}`;
  const succeeded = (response: Response, item: Item) => response.status === 302 && response.headers.get("location") === detailUrl(item);

  async function step(item: Item) {
    const url = detailUrl(item);
    if (item.listed === null) {
      const price = nextPrice();
      const response = await postForm(baseUrl, url, cookies[item.owner], {
        intent: "sell",
        price: price.text,
        currency: "FIRE",
        days: "7",
      });
      if (!succeeded(response, item)) throw new Error(`listing refused: ${response.status}`);
      confirmed.push({ round, tokenId: item.tokenId, nftType: item.nftType, event: "list", price: price.wei, seller: WALLETS[item.owner] });
      item.listed = price.wei;
    } else {
      const buyer = other(item.owner);
      const page = await getPage(baseUrl, url, cookies[buyer]);
      const buy = hiddenForm(page, "confirm-buy");
      if (!buy) throw new Error("no Buy button");
      const confirmation = await (await postForm(baseUrl, buy.action ?? url, cookies[buyer], buy.fields)).text();
      const form = hiddenForm(confirmation, "buy");
      if (!form) throw new Error("no purchase confirmation");
      const response = await postForm(baseUrl, form.action ?? url, cookies[buyer], form.fields);
      if (!succeeded(response, item)) throw new Error(`purchase refused: ${response.status}`);
      confirmed.push({
        round,
        tokenId: item.tokenId,
        nftType: item.nftType,
        event: "sale",
        price: item.listed,
        seller: WALLETS[item.owner],
        buyer: WALLETS[buyer],
      });
      item.owner = buyer;
      item.listed = null;
    }
    item.events += 1;
  }

  let refused = 0;
  const reasons = new Map<string, number>();
  const worker = async () => {
    while (!stop()) {
      const item = items.filter((candidate) => !candidate.busy && !candidate.unsure && candidate.events < EVENTS_PER_ITEM)[0];
      if (!item) return;
      item.busy = true;
      try {
        await step(item);
      } catch (error) {
        // No answer: the kill came first, and the trade may or may not have been committed.
        if (error instanceof TypeError || stop()) item.unsure = true;
        else {
          refused += 1;
          const reason = (error as Error).message;
          reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        }
      } finally {
        item.busy = false;
      }
      // Round-robin: the item goes to the back of the queue.
      items.push(...items.splice(items.indexOf(item), 1));
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, worker));
  return { refused, reasons };
}

/** Every confirmed trade of the round, looked up in its item's history through the market API. */
async function missingTrades(baseUrl: string, trades: Trade[]): Promise<Trade[]> {
  const missing: Trade[] = [];
  const histories = new Map<string, Awaited<ReturnType<typeof tokenDetail>>["history"]>();
  for (const trade of trades) {
    const key = `${trade.nftType}:${trade.tokenId}`;
    if (!histories.has(key)) histories.set(key, (await tokenDetail(baseUrl, trade)).history);
    const found = histories
      .get(key)!
      .some(
        (event) =>
          event.event === trade.event &&
          BigInt(event.price) === trade.price &&
          getAddress(event.fromAddress) === trade.seller &&
          (trade.buyer === undefined || (event.toAddress !== null && getAddress(event.toAddress) === trade.buyer)),
      );
    if (!found) missing.push(trade);
  }
  return missing;
}

ensureBuild();
// On PostgreSQL the cluster outlives the server it kills: the server gets its database by DATABASE_URL.
const cluster = values.engine === "postgres" ? await startPostgresCluster() : null;
if (cluster) {
  process.env[CLUSTER_URL_ENV] = cluster.url;
  process.env.DATABASE_URL = await createTestDatabase();
}
let server = await startServer({ port: PORT, chainPort: CHAIN_PORT, tag: "crash" });
const ledger = process.env.DATABASE_URL ? postgresLedger(process.env.DATABASE_URL) : sqliteLedger(path.join(server.dataDir, "spark.db"));
console.log(`Server on ${server.baseUrl}, backends on ${values.engine} (log: ${server.logFile})`);
const problems: string[] = [];
const fireBefore = await ledger.fireTotal();
const startedAt = Date.now();

try {
  for (let round = 1; round <= ROUNDS; round++) {
    const items = await loadItems(server.baseUrl);
    const cookies = await signIn(server.baseUrl);
    const confirmed: Trade[] = [];
    // Kill after 30–80 confirmed trades, while every worker is still busy.
    const killAfter = 30 + Math.floor(Math.random() * 50);
    let killed = false;
    const trading = burst(server.baseUrl, round, items, cookies, confirmed, () => killed);
    while (confirmed.length < killAfter) {
      if (server.child.exitCode !== null) throw new Error("The server exited during the burst");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const exited = new Promise((resolve) => server.child.once("exit", resolve));
    server.child.kill("SIGKILL");
    killed = true;
    const { refused, reasons } = await trading;
    await exited;
    const unsure = items.filter((item) => item.unsure).length;

    const afterKill = await ledger.integrity();
    const restartedAt = Date.now();
    server = await startServer({ port: PORT, chainPort: CHAIN_PORT, keepData: true, tag: "crash" });
    const restartMs = Date.now() - restartedAt;
    const afterRestart = await ledger.integrity();
    const missing = await missingTrades(server.baseUrl, confirmed);

    console.log(
      `Round ${round}: SIGKILL after ${confirmed.length} confirmed trades (${confirmed.filter((t) => t.event === "sale").length} sales), ` +
        `${unsure} in flight, ${refused} refused; restarted in ${(restartMs / 1000).toFixed(1)} s; ` +
        `integrity_check after the kill: ${afterKill}, after the restart: ${afterRestart}; confirmed trades missing: ${missing.length}`,
    );
    for (const [reason, count] of reasons) console.log(`  refused ${count}×: ${reason}`);
    if (afterKill !== "ok") problems.push(`round ${round}: integrity_check after the kill: ${afterKill}`);
    if (afterRestart !== "ok") problems.push(`round ${round}: integrity_check after the restart: ${afterRestart}`);
    for (const trade of missing)
      problems.push(
        `round ${round}: confirmed ${trade.event} of ${trade.nftType}:${trade.tokenId} at ${trade.price} wei is not in the ledger`,
      );
  }
} finally {
  await stopServer(server);
  // Should a restart have failed, the killed server's chain may still run: stop it by its pid file.
  await stopStaleChain(path.join(server.dataDir, "chain", "anvil-state.json"));
}

const fireAfter = await ledger.fireTotal();
const finalCheck = await ledger.integrity();
await cluster?.stop();
console.log(
  `FIRE over all game balances: ${fireBefore} before, ${fireAfter} after; integrity_check after a clean stop: ${finalCheck}; ${((Date.now() - startedAt) / 1000).toFixed(0)} s in all`,
);
if (fireAfter !== fireBefore) problems.push(`FIRE over all game balances changed by ${fireAfter - fireBefore} wei`);
if (finalCheck !== "ok") problems.push(`integrity_check after a clean stop: ${finalCheck}`);
console.log(problems.length ? `FAILED:\n${problems.map((problem) => `  ${problem}`).join("\n")}` : "Nothing confirmed was lost.");
process.exit(problems.length ? 1 : 0);

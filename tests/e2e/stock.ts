/**
 * Game balances and items for a test's own account (accounts.ts).
 *
 * The market API has no way to grant either: in production they come from the game and the chain indexer,
 * which the embedded backend does not have. So the e2e harness (tests/e2e/server.ts) writes them with the
 * backend's own ledger and catalogue code, as the demo seed does, through the server's own database
 * connection: a second connection, even in another process, would commit between the reads and writes of the
 * server's open transactions and make them fail with SQLITE_BUSY. Tests reach it on a Unix socket in the data
 * directory, which only the harness opens; the production server has no such route.
 */
import fs from "node:fs";
import http from "node:http";
import { type Address, getAddress } from "viem";
import { GAME_TOKEN_ID_BASE } from "~core/constants";
import { type Currency, WEI_PER_TOKEN } from "~core/money";
import type { BackendDb } from "../../backend/types";
import { chainItemRow } from "../../backend/market/shared/chain-items";
import { MarketDb, type Sql } from "../../backend/market/shared/db";
import { drawAttributes, prng } from "../../backend/market/generate";
import { credit } from "../../backend/market/shared/ledger";
import { creditRebate } from "../../backend/market/shared/activity";
import { insertGameStack } from "../../backend/market/claims/stacks";
import { NFT_TYPE } from "~core/nft";
import { type ItemAttributeColumns, LOCATION } from "../../backend/market/shared/tables";

/** tests/e2e/server.ts keeps each port's database and chain here. */
export function e2eDataDir(port = process.env.E2E_PORT ?? "3210") {
  return `data/e2e-${port}`;
}

const socketPath = (dataDir: string) => `${dataDir}/stockroom.sock`;

export interface Stock {
  /** Game balances, in whole tokens. */
  balances?: Partial<Record<Currency, number>>;
  /** How many items of each NFT type, in the game and not on sale. */
  items?: Partial<Record<number, number>>;
  /** Attribute columns the items of a type get instead of drawn ones (a hero of one camp and rarity, say). */
  attributes?: Partial<Record<number, Partial<ItemAttributeColumns>>>;
  /** Game material stacks (0 DarkIron, 1 Silver, 2 Gold) of these amounts, made as the game makes them. */
  stacks?: { material: number; amount: number }[];
  /** Referral rebates earned and not yet claimed, in wei (decimal text: the stock travels as JSON), as invitees' trades earn them. */
  rebates?: Partial<Record<Currency, string>>;
}

export interface StockedItem {
  nftType: number;
  tokenId: string;
  /** The item's detail page. */
  url: string;
}

/** Credits the balances and creates the items for `wallet`, in one transaction on the server's connection. */
export function stockWallet(
  db: MarketDb,
  wallet: Address,
  { balances = {}, items = {}, attributes = {}, stacks = [], rebates = {} }: Stock,
): Promise<StockedItem[]> {
  const owner = getAddress(wallet);
  const now = Date.now();
  return db.write(async (tx) => {
    for (const [currency, tokens] of Object.entries(balances) as [Currency, number][]) {
      await credit(tx, owner, currency, BigInt(tokens) * WEI_PER_TOKEN);
    }
    for (const [currency, wei] of Object.entries(rebates) as [Currency, string][]) await creditRebate(tx, owner, currency, BigInt(wei));
    const created: StockedItem[] = [];
    for (const [type, count] of Object.entries(items)) {
      for (let i = 0; i < (count ?? 0); i++) created.push(await insertItem(tx, owner, Number(type), now, attributes[Number(type)]));
    }
    for (const [i, { material, amount }] of stacks.entries()) {
      const id = await insertGameStack(tx, owner, material, BigInt(amount), `stock:${owner}:${now}:${i}`, now);
      const { token_id: tokenId } = (await tx.get<{ token_id: string }>("select token_id from market_items where id = ?", [id]))!;
      created.push({ nftType: NFT_TYPE.material, tokenId, url: `/marketplace/detail?nftType=${NFT_TYPE.material}&tokenId=${tokenId}` });
    }
    return created;
  });
}

async function insertItem(
  db: Sql,
  owner: Address,
  nftType: number,
  now: number,
  attributes: Partial<ItemAttributeColumns> = {},
): Promise<StockedItem> {
  // Game ids: one sequence over all types, above the chain's (GAME_TOKEN_ID_BASE).
  // Chain stacks' ids (a SparkItems id and a holder, 50+ digits) are no game ids, and no bigint either.
  const highest = await db.get<{ highest: number | null }>(
    "select max(cast(token_id as bigint)) as highest from market_items where length(token_id) < 19",
  );
  const next = Math.max(GAME_TOKEN_ID_BASE, highest?.highest ?? 0) + 1;
  const tokenId = String(next);
  const columns = { ...drawAttributes(nftType, prng(nftType * 1_000_003 + next)), ...attributes };
  // The catalogue's row for a held item, in the game instead of on chain.
  const row = { ...chainItemRow({ nftType, columns }, tokenId, owner, now), location: LOCATION.game };
  const names = Object.keys(row);
  await db.run(`insert into market_items (${names.join(", ")}) values (${names.map(() => "?").join(", ")})`, Object.values(row));
  return { nftType, tokenId, url: `/marketplace/detail?nftType=${nftType}&tokenId=${tokenId}` };
}

/** The harness side: answers `{ wallet, stock }` posts with the items created. */
export async function serveStockroom(store: BackendDb, dataDir: string): Promise<void> {
  const db = new MarketDb(store);
  // A killed harness leaves its socket file behind (the restart test keeps the data directory).
  fs.rmSync(socketPath(dataDir), { force: true });
  const server = http.createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    try {
      const { wallet, stock } = JSON.parse(body) as { wallet: Address; stock: Stock };
      // Stocked first: a failure must still be able to answer 500 (the head is not written yet).
      const stocked = JSON.stringify(await stockWallet(db, wallet, stock));
      res.writeHead(200, { "content-type": "application/json" }).end(stocked);
    } catch (error) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(socketPath(dataDir), resolve));
  // The harness exits with the server: the socket must not hold the process open.
  server.unref();
}

/** The test side: stocks `wallet` through the harness of this run's server. */
/** Stocks `wallet` through the stockroom of the server on `port` (the suite's own by default). */
export function stockAccount(wallet: Address, stock: Stock, port?: string): Promise<StockedItem[]> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: socketPath(e2eDataDir(port)), method: "POST", path: "/" }, async (res) => {
      let body = "";
      for await (const chunk of res) body += chunk;
      if (res.statusCode === 200) resolve(JSON.parse(body) as StockedItem[]);
      else reject(new Error(`Stocking ${wallet} failed: ${body}`));
    });
    req.on("error", (error) => reject(new Error(`No stockroom: is the server tests/e2e/server.ts? (${error.message})`)));
    req.end(JSON.stringify({ wallet, stock }));
  });
}

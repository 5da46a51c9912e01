/** The chain indexer's pure rules, the game id range and the migration that moved game ids out of the chain's range. */
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { describe, expect, it } from "vitest";
import { getAddress, zeroAddress } from "viem";
import { GAME_TOKEN_ID_BASE, TRANSFER_LOOKBACK_BLOCKS } from "~core/constants";
import { encodeItem } from "~core/item-data";
import { migrate } from "../../backend/db/migrate";
import type { BackendDb } from "../../backend/types";
import { MarketDb } from "../../backend/market/shared/db";
import { SqliteDriver } from "../../backend/db/sql";
import { generateMarket } from "../../backend/market/generate";
import { finalOwners } from "../../backend/market/indexer/apply";
import { firstBlock } from "../../backend/market/indexer/indexer";
import { boxItem, cardItem, chainItemRow } from "../../backend/market/shared/chain-items";
import type { TransferLog } from "../../backend/market/indexer/reader";
import { marketMigrations } from "../../backend/market/migrations";
import { demoMarketOptions } from "../../backend/market/seed";
import { ssoMigrations } from "../../backend/sso/migrations";

const A = getAddress("0x00000000000000000000000000000000000000aa");
const B = getAddress("0x00000000000000000000000000000000000000bb");

describe("what a chain token becomes", () => {
  it("a hero card word gives the card's columns, named and drawn by the catalogue", () => {
    const item = cardItem(encodeItem.card({ rarity: 2, camp: 1, identity: 3, profession: 4, level: 7 }))!;
    expect(item.nftType).toBe(0);
    expect(item.columns).toMatchObject({ rarity: 2, camp: 1, identity: 3, profession: 4, level: 7, spaceship_type: null, total: null });
    const row = chainItemRow(item, "42", A, 1000);
    expect(row).toMatchObject({
      nft_type: 0,
      token_id: "42",
      owner_address: A,
      location: 2,
      amount: "1",
      image: "/images/nft/card-epic.svg",
    });
    expect(row.name).toMatch(/ #42$/);
    expect(JSON.parse(row.attributes!)).toContainEqual({ trait_type: "Rarity", value: "Epic" });
  });

  it("spaceships carry their stats and total, eggs their camp, equipment its code, materials their kind", () => {
    const ship = cardItem(encodeItem.spaceship({ shipType: 4, level: 3, stats: [10, 20, 30, 40, 50, 60, 70] }))!;
    expect(ship).toMatchObject({ nftType: 4, columns: { spaceship_type: 4, level: 3, endurance: 10, armor: 70, total: 280, camp: null } });
    expect(cardItem(encodeItem.egg(1))).toMatchObject({ nftType: 5, columns: { egg_type: 1, camp: 2 } });
    expect(cardItem(encodeItem.equipment({ equipmentType: 2, equipmentCode: 16, level: 1 }))).toMatchObject({
      nftType: 7,
      columns: { equipment_type: 2, equipment_code: 16, level: 1 },
    });
    expect(cardItem(encodeItem.material(2))).toMatchObject({ nftType: 8, columns: { material: 2, level: null } });
    expect(boxItem(18)).toMatchObject({ nftType: 6, columns: { box_type: 18, rarity: null } });
  });

  it("a word of a kind SparkCard does not hold (a loot box code included) gives no item", () => {
    expect(cardItem(6n)).toBeNull();
    expect(cardItem(2n)).toBeNull();
    expect(cardItem(0xffn)).toBeNull();
  });
});

describe("applying a range", () => {
  const log = (collection: "card" | "box", tokenId: bigint, from: string, to: string, blockNumber: bigint, logIndex: number) =>
    ({ collection, tokenId, from, to, blockNumber, logIndex }) as TransferLog;

  it("each token ends with the recipient of its last transfer; a burn leaves the zero address", () => {
    const owners = finalOwners([
      log("card", 1n, zeroAddress, A, 10n, 0),
      log("box", 1n, zeroAddress, A, 10n, 1),
      log("card", 1n, A, B, 11n, 0),
      log("box", 1n, A, zeroAddress, 12n, 3),
    ]);
    expect(owners.get("card:1")?.owner).toBe(B);
    expect(owners.get("box:1")?.owner).toBe(zeroAddress);
    expect(owners.size).toBe(2);
  });

  it("starts at the deployment block, or the product §9 lookback below the head when it is unknown", () => {
    expect(firstBlock({ deployedAtBlock: 7 }, 5000n)).toBe(7n);
    expect(firstBlock({ deployedAtBlock: 0 }, 5000n)).toBe(5000n - TRANSFER_LOOKBACK_BLOCKS);
    expect(firstBlock({ deployedAtBlock: 0 }, 10n)).toBe(0n);
  });
});

function bareDb(): { kysely: Kysely<unknown>; db: MarketDb } {
  const sqlite = new SQLite(":memory:");
  const kysely = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
  const store = {
    engine: "sqlite",
    db: kysely,
    sql: new SqliteDriver(sqlite, kysely),
    sqlite,
    close: () => kysely.destroy(),
  } as unknown as BackendDb;
  return { kysely, db: new MarketDb(store) };
}

describe("game and chain token ids", () => {
  it("the generator issues game ids above GAME_TOKEN_ID_BASE, one sequence over every type", async () => {
    const { kysely, db } = bareDb();
    await migrate(kysely, [...ssoMigrations, ...marketMigrations]);
    await generateMarket(db, { ...demoMarketOptions(Date.now()), items: 400, activeListings: 40, sales: 30, cancels: 5 });
    const ids = (await db.all<{ token_id: string; nft_type: number }>("select token_id, nft_type from market_items")).map((r) =>
      Number(r.token_id),
    );
    expect(ids).toHaveLength(400);
    expect(new Set(ids).size).toBe(400);
    expect(Math.min(...ids)).toBe(GAME_TOKEN_ID_BASE + 1);
    expect(
      await db.get("select 1 from market_listings l join market_items i on i.id = l.item_id where l.token_id <> i.token_id"),
    ).toBeUndefined();
    await kysely.destroy();
  });

  it("the migration moves a database's game ids, names, listing and activity copies above the base", async () => {
    const { kysely, db } = bareDb();
    const beforeIds = [...ssoMigrations, ...marketMigrations.filter((m) => m.name < "market_006")];
    await migrate(kysely, beforeIds);
    // Two types both at token 1, as the generator issued them before: one sequence now, by row id. No sales: today's
    // generator adds each to the sale-day rollups (market_020), a table this database does not have yet; listings and
    // cancels give the activity rows the migration moves.
    await generateMarket(db, { ...demoMarketOptions(Date.now()), items: 60, activeListings: 10, sales: 0, cancels: 2 });
    expect(await db.all("select nft_type from market_items where id in (1, 4) order by id")).toEqual([{ nft_type: 0 }, { nft_type: 1 }]);
    await db.run(`update market_items set token_id = '1', name = 'Old name #1' where id in (1, 4)`);
    await db.run("update market_items set token_id = '7', name = 'Custom name' where id = 3");
    for (const table of ["market_listings", "market_activity"]) {
      await db.run(`update ${table} set token_id = (select token_id from market_items where id = item_id)`);
    }
    expect(await db.get("select 1 from market_activity where token_id = '1'")).toBeDefined();
    await migrate(kysely, [...ssoMigrations, ...marketMigrations]);

    const items = await db.all<{ id: number; token_id: string; name: string }>(
      "select id, token_id, name from market_items where id in (1, 3, 4) order by id",
    );
    expect(items).toEqual([
      { id: 1, token_id: String(GAME_TOKEN_ID_BASE + 1), name: `Old name #${GAME_TOKEN_ID_BASE + 1}` },
      { id: 3, token_id: String(GAME_TOKEN_ID_BASE + 3), name: "Custom name" },
      { id: 4, token_id: String(GAME_TOKEN_ID_BASE + 4), name: `Old name #${GAME_TOKEN_ID_BASE + 4}` },
    ]);
    expect(
      (await db.get<{ n: number }>("select count(*) as n from market_items where cast(token_id as integer) < ?", [GAME_TOKEN_ID_BASE]))!.n,
    ).toBe(0);
    for (const table of ["market_listings", "market_activity"]) {
      expect(
        await db.get(`select 1 from ${table} x join market_items i on i.id = x.item_id where x.token_id <> i.token_id`),
      ).toBeUndefined();
    }
    await kysely.destroy();
  });
});

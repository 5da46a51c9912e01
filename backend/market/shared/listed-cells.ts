/**
 * Active listings counted per currency at the sale rollups' grains (sale-days.ts GRAINS), kept by triggers on
 * market_listings whoever writes, so the listed counts of a common view (type, its grade, camp, levels, currency)
 * read a few cells instead of walking up to the market's 10,000-row cap once per currency (decision 0022, P3).
 * Each cell is split by the listings' shard (shards.ts, decision 0034): a listing write moves only its shard's rows,
 * and a reader sums a cell's shards.
 */
import type { Engine } from "../../db/sql";
import { FACET_COLUMNS, GRAINS } from "./sale-days";
import { shardSql } from "./shards";

const KEY = "grain, nft_type, grade, camp, level, currency, shard";
/** What moves a listing into or out of a cell (the trigger on update watches only these). */
const CELL_COLUMNS = ["status", ...FACET_COLUMNS, "currency"];

/**
 * The listing row `row` (new or old)'s cell at each grain, in its shard, as SQL values: a column a grain leaves out,
 * or a null, is -1.
 */
const cellValues = (row: "new" | "old") =>
  GRAINS.map(
    (grain, index) =>
      `(${[
        index,
        ...FACET_COLUMNS.map((column) => (grain.includes(column) ? `coalesce(${row}.${column}, -1)` : "-1")),
        `${row}.currency`,
        shardSql(`${row}.id`),
      ].join(", ")})`,
  );

const add = (row: "new" | "old") =>
  `insert into market_listed_cells (${KEY}, listed) values ${cellValues(row)
    .map((cell) => `${cell.slice(0, -1)}, 1)`)
    .join(", ")} on conflict (${KEY}) do update set listed = market_listed_cells.listed + 1`;
const remove = (row: "new" | "old") =>
  `update market_listed_cells set listed = listed - 1 where (${KEY}) in (values ${cellValues(row).join(", ")})`;

/** The table, its triggers and its fill from the active listings (market_024 / pg_0012, split by shard since market_029 / pg_0019). */
export function listedCellsStatements(engine: Engine): string[] {
  const table = `create table market_listed_cells (
    grain integer not null, nft_type integer not null, grade integer not null, camp integer not null, level integer not null,
    currency ${engine === "postgres" ? 'text collate "C"' : "text"} not null, shard integer not null, listed integer not null,
    primary key (${KEY}))${engine === "postgres" ? "" : " without rowid"}`;
  const fill = GRAINS.map(
    (grain, index) =>
      `insert into market_listed_cells (${KEY}, listed) select ${index}, ${FACET_COLUMNS.map((column) =>
        grain.includes(column) ? `coalesce(${column}, -1)` : "-1",
      ).join(", ")}, currency, ${shardSql("id")}, count(*) from market_listings where status = 0 group by ${[
        ...grain.map((column) => `coalesce(${column}, -1)`),
        "currency",
        shardSql("id"),
      ].join(", ")}`,
  );
  // Named to fire after market_listing_generation's triggers (PostgreSQL fires them by name): every listing write
  // locks its shard's generation slot first, so two writers of one shard never take its cells in opposite orders
  // (writers of different shards share no cell).
  if (engine === "postgres") {
    return [
      table,
      `create function market_listings_listed_cells() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' and old.status = 0 then ${remove("old")}; end if;
        if tg_op <> 'DELETE' and new.status = 0 then ${add("new")}; end if;
        return null;
      end
      $$`,
      // By the SQLite triggers' names, one function for the three.
      ...[
        ["insert", "after insert"],
        ["delete", "after delete"],
        ["update", `after update of ${CELL_COLUMNS.join(", ")}`],
      ].map(
        ([name, when]) =>
          `create trigger market_listings_listed_cells_${name} ${when} on market_listings for each row execute function market_listings_listed_cells()`,
      ),
      ...fill,
    ];
  }
  return [
    table,
    `create trigger market_listings_listed_cells_insert after insert on market_listings when new.status = 0 begin ${add("new")}; end`,
    `create trigger market_listings_listed_cells_delete after delete on market_listings when old.status = 0 begin ${remove("old")}; end`,
    `create trigger market_listings_listed_cells_update after update of ${CELL_COLUMNS.join(", ")} on market_listings
     when old.status = 0 or new.status = 0 begin
       ${remove("old")} and old.status = 0;
       insert into market_listed_cells (${KEY}, listed) select * from (values ${cellValues("new")
         .map((cell) => `${cell.slice(0, -1)}, 1)`)
         .join(", ")}) where new.status = 0 on conflict (${KEY}) do update set listed = market_listed_cells.listed + 1;
     end`,
    ...fill,
  ];
}

/**
 * The two engines' schemas are the same (issue 26, item 3): a fresh SQLite database built by its migrations and a
 * fresh PostgreSQL database built by its baseline (backend/schema.ts) have the same tables, columns,
 * indexes, constraints, triggers and seed rows, by name.
 *
 * Comparison rules:
 * - Tables: every table but SQLite's own (`sqlite_*`). The runner's `_migrations` is compared too, without its
 *   default (each engine writes its own clock expression).
 * - Columns, per table, by name: nullability and a type family. SQLite's affinity rules give the family (INT →
 *   integer, CHAR/CLOB/TEXT → text, REAL/FLOA/DOUB → real, BLOB or none → blob); PostgreSQL's smallint/integer/bigint
 *   are integer, text/varchar text, real/double precision real, bytea blob. A primary key column counts as not null
 *   on both (SQLite lets a non-integer primary key of a rowid table hold NULL, a legacy quirk no code uses).
 *   Defaults are compared with casts, quotes and parentheses removed (`'[]'::text` is `[]`).
 * - Constraints are compared by name. A constraint SQLite leaves unnamed (an inline `unique`, `primary key`, `check`
 *   or `references`, whose unique and primary keys show up as `sqlite_autoindex_<table>_<n>`) is expected under the
 *   name PostgreSQL gives it by default: `<table>_pkey`, `<table>_<columns>_key`, `<table>_<column>_check`,
 *   `<table>_<columns>_fkey`. Primary and unique keys also compare their columns in order, foreign keys their
 *   columns, the referenced table and columns, and the on-delete rule. Check expressions are not compared (each
 *   engine prints them its own way); their names and columns are.
 * - Indexes (those made by `create index`, not the ones behind a constraint), by name: table, columns in order,
 *   unique, and the partial index's where clause, lower-cased without spaces and parentheses. A SQLite index entry
 *   ends with the rowid, so a non-unique index that names its table's integer primary key last is compared without
 *   it, on either engine (PostgreSQL's walk indexes name `id` to give the order SQLite's give for free).
 * - Triggers, by name: table, event, and the columns of an `update of` trigger. Their bodies are plpgsql functions
 *   on one side and SQLite statements on the other, so the last test here runs PostgreSQL's (SQLite's are run by the
 *   market's own tests).
 * - Seed rows: every row of every table but `_migrations`, values as text, in any order. Every identity column's
 *   next value is above the rows already there.
 * - PostgreSQL only: every text column is `collate "C"`, so text compares and sorts bytewise as on SQLite.
 */
import type SQLite from "better-sqlite3";
import pg from "pg";
import { Kysely, PostgresDialect } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../backend/db/migrate";
import { postgresMigrations, openDatabase } from "../../backend/schema";
import { createTestDatabase } from "../support/postgres";

type Family = "integer" | "text" | "real" | "blob" | "numeric";

interface Column {
  notNull: boolean;
  type: Family;
  default: string | null;
}

interface Key {
  table: string;
  columns: string[];
}

interface ForeignKey extends Key {
  references: string;
  referencedColumns: string[];
  onDelete: string;
}

interface Index extends Key {
  unique: boolean;
  where: string | null;
}

interface Trigger {
  table: string;
  event: string;
  columns: string[];
}

interface Schema {
  tables: string[];
  columns: Record<string, Record<string, Column>>;
  primaryKeys: Record<string, Key>;
  uniques: Record<string, Key>;
  checks: Record<string, { table: string; column: string | null }>;
  foreignKeys: Record<string, ForeignKey>;
  indexes: Record<string, Index>;
  triggers: Record<string, Trigger>;
  /** Table → its rows, each as JSON with every value as text, sorted. */
  rows: Record<string, string[]>;
}

/** The runner's table: its default is the engine's own clock expression, and its rows are the migration names. */
const RUNNER_TABLE = "_migrations";

const normaliseDefault = (value: string | null) => (value === null ? null : value.replace(/::[a-z ]+/gi, "").replace(/[()'"\s]/g, ""));
const normaliseWhere = (value: string | null) => (value === null ? null : value.toLowerCase().replace(/[()\s]/g, ""));

function sortedRows(rows: Record<string, unknown>[]): string[] {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  return rows
    .map((row) =>
      JSON.stringify(
        Object.keys(row)
          .sort()
          .map((key) => [key, text(row[key])]),
      ),
    )
    .sort();
}

// ---- SQLite ----

/** SQLite's column affinity rules (https://sqlite.org/datatype3.html, 3.1). */
function sqliteFamily(declared: string): Family {
  const type = declared.toUpperCase();
  if (type.includes("INT")) return "integer";
  if (/CHAR|CLOB|TEXT/.test(type)) return "text";
  if (type === "" || type.includes("BLOB")) return "blob";
  if (/REAL|FLOA|DOUB/.test(type)) return "real";
  return "numeric";
}

/** The parts of a `create table` body separated by top-level commas (not those inside parentheses or quotes). */
function tableParts(createSql: string): string[] {
  const body = createSql.slice(createSql.indexOf("(") + 1, createSql.lastIndexOf(")"));
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let current = "";
  for (const char of body) {
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === "(") depth++;
    else if (char === ")") depth--;
    else if (char === "," && depth === 0) {
      parts.push(current.trim());
      current = "";
      continue;
    }
    current += char;
  }
  parts.push(current.trim());
  return parts.filter(Boolean);
}

const unquote = (name: string) => name.trim().replace(/^"|"$/g, "");
const columnList = (list: string) => list.split(",").map(unquote);

/** The indexes, each without a last column that is its table's integer primary key (SQLite's rowid) when not unique. */
function withoutRowid(schema: Schema): Record<string, Index> {
  const rowidOf = new Map(
    Object.values(schema.primaryKeys)
      .filter((key) => key.columns.length === 1 && schema.columns[key.table]?.[key.columns[0]]?.type === "integer")
      .map((key) => [key.table, key.columns[0]]),
  );
  return Object.fromEntries(
    Object.entries(schema.indexes).map(([name, index]) => {
      const rowid = rowidOf.get(index.table);
      const endsWithRowid = !index.unique && index.columns.length > 1 && index.columns.at(-1) === rowid;
      return [name, endsWithRowid ? { ...index, columns: index.columns.slice(0, -1) } : index];
    }),
  );
}

const emptySchema = (): Schema => ({
  tables: [],
  columns: {},
  primaryKeys: {},
  uniques: {},
  checks: {},
  foreignKeys: {},
  indexes: {},
  triggers: {},
  rows: {},
});

function readSqlite(db: SQLite.Database): Schema {
  const schema = emptySchema();
  const tables = db
    .prepare("select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name")
    .all() as { name: string; sql: string }[];
  for (const { name: table, sql: createSql } of tables) {
    schema.tables.push(table);
    const info = db.prepare('select name, type, "notnull" as not_null, dflt_value, pk from pragma_table_info(?)').all(table) as {
      name: string;
      type: string;
      not_null: number;
      dflt_value: string | null;
      pk: number;
    }[];
    schema.columns[table] = Object.fromEntries(
      info.map((c) => [
        c.name,
        {
          notNull: c.not_null === 1 || c.pk > 0,
          type: sqliteFamily(c.type),
          default: table === RUNNER_TABLE ? null : normaliseDefault(c.dflt_value),
        },
      ]),
    );

    // Named table constraints, and inline column checks, from the create statement (SQLite keeps no catalog of them).
    const named = new Map<string, string>();
    for (const part of tableParts(createSql)) {
      const constraint = /^constraint\s+("?\w+"?)\s+(primary key|unique|check|foreign key)\s*(?:\(([^)]*)\))?/is.exec(part);
      if (constraint) {
        const [, name, kind, list] = constraint;
        if (kind.toLowerCase() === "check") schema.checks[unquote(name)] = { table, column: null };
        else named.set(`${kind.toLowerCase()}:${columnList(list).join(",")}`, unquote(name));
      } else if (/^check\b/i.test(part)) {
        schema.checks[`${table}_check`] = { table, column: null };
      } else if (!/^(primary key|unique|foreign key)\b/i.test(part) && /\bcheck\s*\(/i.test(part)) {
        const column = unquote(/^("[^"]+"|\w+)/.exec(part)![1]);
        schema.checks[`${table}_${column}_check`] = { table, column };
      }
    }

    const pk = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    if (pk.length) {
      const columns = pk.map((c) => c.name);
      schema.primaryKeys[named.get(`primary key:${columns.join(",")}`) ?? `${table}_pkey`] = { table, columns };
    }

    const indexColumns = (index: string) =>
      (
        db.prepare("select name, cid from pragma_index_xinfo(?) where key = 1 order by seqno").all(index) as {
          name: string | null;
          cid: number;
        }[]
      ).map((c) => c.name ?? `<expression ${c.cid}>`);
    const indexList = db.prepare('select name, "unique" as is_unique, origin, partial from pragma_index_list(?)').all(table) as {
      name: string;
      is_unique: number;
      origin: "c" | "u" | "pk";
      partial: number;
    }[];
    for (const index of indexList) {
      if (index.origin !== "u") continue;
      const columns = indexColumns(index.name);
      schema.uniques[named.get(`unique:${columns.join(",")}`) ?? `${table}_${columns.join("_")}_key`] = { table, columns };
    }

    const foreignKeys = db
      .prepare('select id, "table" as ref, "from" as col, "to" as ref_col, on_delete from pragma_foreign_key_list(?) order by id, seq')
      .all(table) as {
      id: number;
      ref: string;
      col: string;
      ref_col: string;
      on_delete: string;
    }[];
    for (const id of new Set(foreignKeys.map((fk) => fk.id))) {
      const parts = foreignKeys.filter((fk) => fk.id === id);
      const columns = parts.map((fk) => fk.col);
      schema.foreignKeys[`${table}_${columns.join("_")}_fkey`] = {
        table,
        columns,
        references: parts[0].ref,
        referencedColumns: parts.map((fk) => fk.ref_col),
        onDelete: parts[0].on_delete.toLowerCase(),
      };
    }

    for (const index of indexList) {
      if (index.origin !== "c") continue;
      const { sql: indexSql } = db.prepare("select sql from sqlite_master where type = 'index' and name = ?").get(index.name) as {
        sql: string;
      };
      schema.indexes[index.name] = {
        table,
        columns: indexColumns(index.name),
        unique: index.is_unique === 1,
        where: index.partial ? normaliseWhere(/\swhere\s(.*)$/is.exec(indexSql)![1]) : null,
      };
    }

    if (table !== RUNNER_TABLE) schema.rows[table] = sortedRows(db.prepare(`select * from "${table}"`).all() as Record<string, unknown>[]);
  }

  const triggers = db.prepare("select name, tbl_name, sql from sqlite_master where type = 'trigger'").all() as {
    name: string;
    tbl_name: string;
    sql: string;
  }[];
  for (const trigger of triggers) {
    const [, event, of] = /\b(?:after|before|instead of)\s+(insert|update|delete)\s+(?:of\s+(.*?)\s+)?on\s/is.exec(trigger.sql)!;
    schema.triggers[trigger.name] = { table: trigger.tbl_name, event: event.toLowerCase(), columns: of ? columnList(of) : [] };
  }
  return schema;
}

// ---- PostgreSQL ----

function postgresFamily(type: string): Family {
  if (["smallint", "integer", "bigint"].includes(type)) return "integer";
  if (["text", "character varying", "character"].includes(type)) return "text";
  if (["real", "double precision"].includes(type)) return "real";
  if (type === "bytea") return "blob";
  return "numeric";
}

const ON_DELETE: Record<string, string> = { a: "no action", r: "restrict", c: "cascade", n: "set null", d: "set default" };

async function readPostgres(pool: pg.Pool): Promise<Schema> {
  const schema = emptySchema();
  const { rows: tables } = await pool.query<{ name: string }>(
    `select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  schema.tables = tables.map((t) => t.name);

  const { rows: columns } = await pool.query<{
    table_name: string;
    column_name: string;
    is_nullable: string;
    data_type: string;
    column_default: string | null;
  }>(
    `select table_name, column_name, is_nullable, data_type, column_default from information_schema.columns
      where table_schema = 'public' order by table_name, ordinal_position`,
  );
  for (const c of columns) {
    (schema.columns[c.table_name] ??= {})[c.column_name] = {
      notNull: c.is_nullable === "NO",
      type: postgresFamily(c.data_type),
      default: c.table_name === RUNNER_TABLE ? null : normaliseDefault(c.column_default),
    };
  }

  // Attribute names of a table's attnums, in the order given.
  const names = (relation: string, numbers: string) => `(select array_agg(a.attname::text order by k.ord)
      from unnest(${numbers}) with ordinality as k(num, ord) join pg_attribute a on a.attrelid = ${relation} and a.attnum = k.num)`;
  const { rows: constraints } = await pool.query<{
    name: string;
    type: string;
    table: string;
    columns: string[];
    references: string | null;
    referenced_columns: string[] | null;
    on_delete: string;
  }>(
    `select c.conname as name, c.contype as type, c.conrelid::regclass::text as table,
            ${names("c.conrelid", "c.conkey")} as columns,
            c.confrelid::regclass::text as references, ${names("c.confrelid", "c.confkey")} as referenced_columns,
            c.confdeltype as on_delete
       from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where n.nspname = 'public' and c.conrelid <> 0`,
  );
  for (const c of constraints) {
    const key = { table: c.table, columns: c.columns };
    if (c.type === "p") schema.primaryKeys[c.name] = key;
    else if (c.type === "u") schema.uniques[c.name] = key;
    else if (c.type === "c")
      schema.checks[c.name] = {
        table: c.table,
        column: c.columns.length === 1 && c.name === `${c.table}_${c.columns[0]}_check` ? c.columns[0] : null,
      };
    else if (c.type === "f") {
      schema.foreignKeys[c.name] = {
        ...key,
        references: c.references!,
        referencedColumns: c.referenced_columns!,
        onDelete: ON_DELETE[c.on_delete],
      };
    }
  }

  const { rows: indexes } = await pool.query<{ name: string; table: string; columns: string[]; unique: boolean; where: string | null }>(
    `select ic.relname as name, i.indrelid::regclass::text as table,
            array(select pg_get_indexdef(i.indexrelid, k, true) from generate_series(1, i.indnkeyatts) as k order by k) as columns,
            i.indisunique as unique, pg_get_expr(i.indpred, i.indrelid) as where
       from pg_index i join pg_class ic on ic.oid = i.indexrelid join pg_namespace n on n.oid = ic.relnamespace
      where n.nspname = 'public' and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
  );
  for (const index of indexes) {
    schema.indexes[index.name] = { table: index.table, columns: index.columns, unique: index.unique, where: normaliseWhere(index.where) };
  }

  const { rows: triggers } = await pool.query<{ name: string; table: string; type: number; columns: string[] | null }>(
    `select t.tgname as name, t.tgrelid::regclass::text as table, t.tgtype::integer as type,
            ${names("t.tgrelid", "t.tgattr::int2[]")} as columns
       from pg_trigger t join pg_class r on r.oid = t.tgrelid join pg_namespace n on n.oid = r.relnamespace
      where n.nspname = 'public' and not t.tgisinternal`,
  );
  for (const trigger of triggers) {
    // tgtype bits (pg_trigger.h): 4 insert, 8 delete, 16 update; each SQLite trigger has one event.
    const event = trigger.type & 4 ? "insert" : trigger.type & 8 ? "delete" : trigger.type & 16 ? "update" : `type ${trigger.type}`;
    schema.triggers[trigger.name] = { table: trigger.table, event, columns: trigger.columns ?? [] };
  }

  for (const table of schema.tables) {
    if (table === RUNNER_TABLE) continue;
    schema.rows[table] = sortedRows((await pool.query<Record<string, unknown>>(`select * from "${table}"`)).rows);
  }
  return schema;
}

/** Identity columns whose next value is not above the rows already in their table. */
async function identitiesBehind(pool: pg.Pool): Promise<string[]> {
  const { rows: identities } = await pool.query<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns where table_schema = 'public' and is_identity = 'YES'`,
  );
  const behind: string[] = [];
  for (const { table_name: table, column_name: column } of identities) {
    const { rows } = await pool.query<{ next: string; max: string }>(
      `select (select case when is_called then last_value + 1 else last_value end from ${
        (await pool.query<{ seq: string }>("select pg_get_serial_sequence($1, $2) as seq", [table, column])).rows[0].seq
      }) as next, coalesce((select max("${column}") from "${table}"), 0) as max`,
    );
    if (BigInt(rows[0].next) <= BigInt(rows[0].max)) behind.push(`${table}.${column}`);
  }
  return behind;
}

/** Every released PostgreSQL migration, in order: databases record these names, so none is renamed or moved. */
const RELEASED_POSTGRES_MIGRATIONS = [
  "pg_0001_baseline",
  "pg_0002_items_events",
  "pg_0003_chain_listings",
  "pg_0004_trading_step_kinds",
  "pg_0005_wallet_sign_in_nonces",
  "pg_0006_awards",
  "pg_0007_watches",
  "pg_0008_sale_days",
  "pg_0009_offers",
  "pg_0010_chain_offers",
  "pg_0012_offer_sales",
  "pg_0013_mutation_events",
  "pg_0014_role_fences",
  "pg_0015_stack_amounts_text",
  "pg_0016_watch_alerts_per_listing",
  "pg_0017_offer_page_generation",
  "pg_0018_display_names",
  "pg_0019_counters_without_a_hot_row",
  "pg_0020_gas_tank",
];

it("keeps the released PostgreSQL migrations' names and order (they are assembled from each backend's part)", () => {
  const names = postgresMigrations.map((m) => m.name);
  expect(names.slice(0, RELEASED_POSTGRES_MIGRATIONS.length)).toEqual(RELEASED_POSTGRES_MIGRATIONS);
});

describe("the PostgreSQL baseline and the SQLite migrations", () => {
  let sqlite: Schema;
  let postgres: Schema;
  let behind: string[];
  let pool: pg.Pool;
  let db: Kysely<unknown> | undefined;

  beforeAll(async () => {
    const store = await openDatabase(":memory:");
    try {
      sqlite = readSqlite(store.sqlite!);
    } finally {
      await store.close();
    }
    pool = new pg.Pool({ connectionString: await createTestDatabase() });
    // Destroying the Kysely ends the pool.
    db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    expect(await migrate(db, postgresMigrations)).toEqual(postgresMigrations.map((m) => m.name));
    postgres = await readPostgres(pool);
    behind = await identitiesBehind(pool);
  });

  afterAll(async () => {
    await db?.destroy();
  });

  it("have the same tables", () => {
    expect(postgres.tables).toEqual(sqlite.tables);
  });

  it("have the same columns in each table: names, nullability, type family and defaults", () => {
    expect(postgres.columns).toEqual(sqlite.columns);
  });

  it("have the same primary keys, unique constraints, checks and foreign keys, by name", () => {
    expect(postgres.primaryKeys).toEqual(sqlite.primaryKeys);
    expect(postgres.uniques).toEqual(sqlite.uniques);
    expect(postgres.checks).toEqual(sqlite.checks);
    expect(postgres.foreignKeys).toEqual(sqlite.foreignKeys);
  });

  it("have the same indexes, by name: table, columns in order, unique and where clause", () => {
    expect(withoutRowid(postgres)).toEqual(withoutRowid(sqlite));
  });

  it("have the same triggers, by name", () => {
    expect(postgres.triggers).toEqual(sqlite.triggers);
  });

  it("seed the same rows, and identities start above them", () => {
    expect(postgres.rows).toEqual(sqlite.rows);
    expect(behind).toEqual([]);
  });

  it("compare text bytewise on PostgreSQL, as SQLite does (wei amounts, ISO times, addresses)", async () => {
    const { rows } = await pool.query<{ column: string }>(
      `select table_name || '.' || column_name as column from information_schema.columns
        where table_schema = 'public' and data_type = 'text' and table_name <> $1 and collation_name is distinct from 'C'`,
      [RUNNER_TABLE],
    );
    expect(rows.map((row) => row.column)).toEqual([]);
  });

  it("keep the generations by triggers on PostgreSQL: a listing change moves both, an item change only while listed", async () => {
    const generations = async () => {
      const { rows } = await pool.query<{ listing: string; page: string }>(
        `select (select sum(value) from market_listing_generation_slots) as listing,
                (select sum(value) from market_page_generation_slots) as page`,
      );
      return { listing: Number(rows[0].listing), page: Number(rows[0].page) };
    };
    const {
      rows: [item],
    } = await pool.query<{ id: string }>(
      `insert into market_items (nft_type, token_id, owner_address, name, image, created_at, updated_at)
       values (1, '1', '0xa', 'n', 'i', 1, 1) returning id`,
    );
    await pool.query("update market_items set views = views + 1 where id = $1", [item.id]);
    expect(await generations()).toEqual({ listing: 0, page: 0 });
    await pool.query(
      `insert into market_listings (item_id, nft_type, token_id, seller_address, price, currency, listed_at)
       values ($1, 1, '1', '0xa', lpad('5', 78, '0'), 'ETH', 1)`,
      [item.id],
    );
    expect(await generations()).toEqual({ listing: 1, page: 1 });
    // Views are not counted: the page generation moves, the listing generation does not.
    await pool.query("update market_listings set views = views + 1");
    await pool.query("update market_items set views = views + 1 where id = $1", [item.id]);
    expect(await generations()).toEqual({ listing: 1, page: 3 });
    // Each change bumps exactly one of the 8 slots, whichever random() picks.
    for (let i = 0; i < 50; i++) await pool.query("update market_listings set views = views + 1");
    expect(await generations()).toEqual({ listing: 1, page: 53 });
    await pool.query("update market_listings set status = 1");
    await pool.query("update market_items set views = views + 1 where id = $1", [item.id]);
    expect(await generations()).toEqual({ listing: 2, page: 54 });
  });
});

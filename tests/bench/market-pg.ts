/**
 * The benchmarks' PostgreSQL market databases: a copy of a cached SQLite bench database (tests/bench/market-db.ts)
 * in a throwaway cluster started for the run (tests/support/postgres.ts). The per-row generator would take far too
 * long on PostgreSQL at 1 M listings; a bulk copy takes about a minute.
 *
 * The copy: `openDatabase(url)` applies the PostgreSQL baseline; the secondary indexes are dropped, every table
 * holding rows in the SQLite file is copied in batches (`insert … select * from unnest($1::type[], …)`, one array
 * per column) with triggers and foreign-key checks off (`session_replication_role = replica`: the rows were
 * consistent in SQLite, and the generation counters are copied as they are), the indexes are built again, the
 * identity sequences are set past the largest ids, and the tables are analyzed.
 */
import SQLite from "better-sqlite3";
import pg from "pg";
import { openDatabase } from "../../backend/schema";
import { startPostgresCluster } from "../support/postgres";

/** Rows per insert: one array parameter per column, so the batch is bounded by memory, not by parameters. */
const BATCH = 5000;

/** Tables never copied: each engine keeps its own migration log. */
const SKIP = new Set(["_migrations"]);

export interface BenchCluster {
  /** A fresh database named `name` in the cluster; its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** A throwaway cluster for one bench run. */
export async function startBenchCluster(): Promise<BenchCluster> {
  const cluster = await startPostgresCluster();
  return {
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      try {
        await client.query(`drop database if exists "${name}"`);
        await client.query(`create database "${name}"`);
      } finally {
        await client.end();
      }
      const url = new URL(cluster.url);
      url.pathname = `/${name}`;
      return url.toString();
    },
    stop: () => cluster.stop(),
  };
}

interface Column {
  name: string;
  type: string;
  identity: boolean;
}

/** Copies the SQLite file `source` into the empty PostgreSQL database `url`; returns rows copied per table. */
export async function copyToPostgres(
  source: string,
  url: string,
  log: (line: string) => void = (line) => console.log(line),
): Promise<Record<string, number>> {
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  // The baseline schema, its triggers and its seed rows.
  await (await openDatabase(url)).close();

  const sqlite = new SQLite(source, { readonly: true });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const copied: Record<string, number> = {};
  try {
    await client.query("set session_replication_role = replica");
    await client.query("set maintenance_work_mem = '512MB'");

    const tables = (
      await client.query<{ table_name: string }>(
        `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
      )
    ).rows
      .map((row) => row.table_name)
      .filter((name) => !SKIP.has(name));
    const inSqlite = new Set(
      (sqlite.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[]).map((row) => row.name),
    );
    const filled = tables.filter(
      (name) => inSqlite.has(name) && (sqlite.prepare(`select exists (select 1 from "${name}") as n`).get() as { n: number }).n === 1,
    );

    // Secondary indexes (not those behind a primary key or unique constraint) are built once, after the load.
    const indexes = (
      await client.query<{ name: string; def: string }>(
        `select i.indexname as name, i.indexdef as def from pg_indexes i
         where i.schemaname = 'public' and i.tablename = any($1)
           and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
        [filled],
      )
    ).rows;
    for (const index of indexes) await client.query(`drop index "${index.name}"`);

    for (const table of filled) {
      const columns = (
        await client.query<{ name: string; type: string; identity: string }>(
          `select column_name as name, data_type as type, is_identity as identity from information_schema.columns
           where table_schema = 'public' and table_name = $1 order by ordinal_position`,
          [table],
        )
      ).rows.map((row): Column => ({ name: row.name, type: row.type, identity: row.identity === "YES" }));
      const names = columns.map((column) => `"${column.name}"`).join(", ");
      // The seed rows of the baseline (generations, sequences) give way to the copied ones.
      await client.query(`delete from "${table}"`);
      const insert = `insert into "${table}" (${names}) select * from unnest(${columns
        .map((column, i) => `$${i + 1}::${column.type}[]`)
        .join(", ")})`;
      const rows = sqlite.prepare(`select ${names} from "${table}"`).raw(true).iterate() as IterableIterator<unknown[]>;
      let count = 0;
      let pending: Promise<unknown> = Promise.resolve();
      for (let done = false; !done; ) {
        const batch: unknown[][] = [];
        for (let next = rows.next(); ; next = rows.next()) {
          if (next.done) {
            done = true;
            break;
          }
          batch.push(next.value);
          if (batch.length === BATCH) break;
        }
        if (batch.length === 0) break;
        const arrays = columns.map((_, c) => batch.map((row) => row[c]));
        // The next batch is read from SQLite while PostgreSQL inserts this one.
        await pending;
        pending = client.query(insert, arrays);
        count += batch.length;
      }
      await pending;
      copied[table] = count;

      for (const column of columns.filter((c) => c.identity)) {
        await client.query(
          `select setval(pg_get_serial_sequence($1, $2), coalesce((select max("${column.name}") from "${table}"), 0) + 1, false)`,
          [table, column.name],
        );
      }
      if (count >= 100_000) log(`  ${table}: ${count.toLocaleString("en")} rows, ${elapsed()}`);
    }
    log(`  rows copied, ${elapsed()}`);
    for (const index of indexes) await client.query(index.def);
    log(`  ${indexes.length} indexes built, ${elapsed()}`);
    await client.query("analyze");
    log(`  analyzed, ${elapsed()}`);
  } finally {
    await client.end();
    sqlite.close();
  }
  return copied;
}

/**
 * One database's schema, read the same way from either engine (schema-sqlite.ts, schema-postgres.ts) so that
 * schema-engines.test.ts can compare the two.
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

export type Family = "integer" | "text" | "real" | "blob" | "numeric";

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

export interface Schema {
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
export const RUNNER_TABLE = "_migrations";

export const normaliseDefault = (value: string | null) =>
  value === null ? null : value.replace(/::[a-z ]+/gi, "").replace(/[()'"\s]/g, "");
export const normaliseWhere = (value: string | null) => (value === null ? null : value.toLowerCase().replace(/[()\s]/g, ""));

export function sortedRows(rows: Record<string, unknown>[]): string[] {
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

/** The indexes, each without a last column that is its table's integer primary key (SQLite's rowid) when not unique. */
export function withoutRowid(schema: Schema): Record<string, Index> {
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

export const emptySchema = (): Schema => ({
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

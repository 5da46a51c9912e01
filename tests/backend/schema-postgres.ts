/** A PostgreSQL database's schema and rows, as schema-shape.ts describes them. */
import type pg from "pg";
import { RUNNER_TABLE, emptySchema, normaliseDefault, normaliseWhere, sortedRows, type Family, type Schema } from "./schema-shape";

function postgresFamily(type: string): Family {
  if (["smallint", "integer", "bigint"].includes(type)) return "integer";
  if (["text", "character varying", "character"].includes(type)) return "text";
  if (["real", "double precision"].includes(type)) return "real";
  if (type === "bytea") return "blob";
  return "numeric";
}

const ON_DELETE: Record<string, string> = { a: "no action", r: "restrict", c: "cascade", n: "set null", d: "set default" };

export async function readPostgres(pool: pg.Pool): Promise<Schema> {
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
export async function identitiesBehind(pool: pg.Pool): Promise<string[]> {
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

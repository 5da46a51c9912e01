/** A SQLite database's schema and rows, as schema-shape.ts describes them. */
import type SQLite from "better-sqlite3";
import { RUNNER_TABLE, emptySchema, normaliseDefault, normaliseWhere, sortedRows, type Family, type Schema } from "./schema-shape";

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

export function readSqlite(db: SQLite.Database): Schema {
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

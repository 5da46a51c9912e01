/**
 * Adding to an amount kept as wei text, without one writer at a time (decision 0010): the new amount is worked out
 * in bigint, the same on SQLite and PostgreSQL (SQLite's arithmetic would turn uint256 text into a float), and the
 * write is a compare-and-set on the exact text that was read, or an insert that does nothing when another writer
 * created the row first. Its row count says whether it landed; a miss reads again, a bounded number of times. A
 * concurrent change is never overwritten.
 */
import type { Engine } from "../../db/sql";
import { ApiError } from "../../http";
import type { Sql } from "./db";
import { readWei } from "./money";

const TRIES = 5;
const AMOUNT_BUSY = "The balance changed while it was being updated, please try again";

export interface WeiColumn {
  table: "market_balances" | "market_rebate_balances" | "market_daily_volume" | "market_sale_days" | "market_sale_hours";
  column: "amount" | "earned" | "claimed" | "volume";
  /** The row's key, column by column. */
  key: Record<string, string | number>;
  /** The other columns of a new row (the key and `column` are added). */
  fresh?: Record<string, string | number>;
  /** Also set on every write, as SQL (`trades = trades + 1`). */
  alsoSet?: string;
  /** The parameters of `alsoSet`'s placeholders. */
  alsoParams?: readonly unknown[];
}

/** Adds `delta` to the column and returns the new amount; `floor` refuses an amount that would fall below it. */
export async function addToWei(db: Sql, target: WeiColumn, delta: bigint, refuse?: { floor: bigint; message: string }): Promise<bigint> {
  const keys = Object.keys(target.key);
  const where = keys.map((name) => `${name} = ?`).join(" and ");
  const keyValues = Object.values(target.key);
  const fresh = { ...target.fresh, ...target.key };
  const also = target.alsoSet ? `, ${target.alsoSet}` : "";
  for (let attempt = 0; attempt < TRIES; attempt++) {
    // PostgreSQL: lock the row as it is read, so that under contention the compare-and-set below cannot miss (read
    // committed would otherwise let fifty rivals each miss five times). SQLite has one writer: nothing to lock.
    const lock = db.engine === "postgres" ? " for update" : "";
    const row = await db.get<Record<string, string>>(`select ${target.column} from ${target.table} where ${where}${lock}`, keyValues);
    const stored = row?.[target.column];
    const next = (stored === undefined ? 0n : readWei(stored)) + delta;
    if (refuse && next < refuse.floor) throw new ApiError(400, refuse.message);
    const { changes } =
      stored === undefined
        ? await db.run(
            `insert into ${target.table} (${[...Object.keys(fresh), target.column].join(", ")})
             values (${[...Object.keys(fresh), target.column].map(() => "?").join(", ")}) on conflict do nothing`,
            [...Object.values(fresh), next.toString()],
          )
        : await db.run(`update ${target.table} set ${target.column} = ?${also} where ${where} and ${target.column} = ?`, [
            next.toString(),
            ...(target.alsoParams ?? []),
            ...keyValues,
            stored,
          ]);
    if (changes === 1) return next;
  }
  throw new ApiError(409, AMOUNT_BUSY);
}

/**
 * SQL for the exact sum of two wei amounts kept as decimal text (`a`, `b`: SQL expressions), so that an upsert adds to
 * a counter in one statement (`on conflict … do update set volume = <sum of the row's and excluded's>`) instead of
 * reading it and writing it back: PostgreSQL adds them as numeric (arbitrary precision), SQLite by the connection's
 * `wei_add` (backend/db/sql.ts SqliteDriver; its own arithmetic would turn uint256 text into a float). The row lock
 * the upsert takes makes the addition atomic on both engines, whoever else writes (decision 0010).
 */
export function weiSumSql(engine: Engine, a: string, b: string): string {
  return engine === "postgres" ? `(${a}::numeric + ${b}::numeric)::text` : `wei_add(${a}, ${b})`;
}

import type { Insertable, Kysely, Selectable } from "kysely";
import type { Database } from "../db";
import type { StoreOrder } from "~core/api/sso";
import type { StoreOrdersTable } from "./tables";

/** POST /store/getOrderDetail's data: the order without its buyer's identity. */
function orderDetail(row: Selectable<StoreOrdersTable>): StoreOrder {
  return {
    sessionId: row.session_id,
    productId: row.product_id,
    productName: row.product_name,
    quantity: row.quantity,
    amountCents: row.amount_cents,
    currency: row.currency,
    status: row.status,
    createdAt: row.created_at,
    paidAt: row.paid_at,
  };
}

export function createOrders(db: Kysely<Database>) {
  return {
    async bySessionId(sessionId: string): Promise<StoreOrder | null> {
      const row = await db.selectFrom("store_orders").selectAll().where("session_id", "=", sessionId).executeTakeFirst();
      return row ? orderDetail(row) : null;
    },

    async insert(order: Insertable<StoreOrdersTable>): Promise<void> {
      await db.insertInto("store_orders").values(order).execute();
    },
  };
}

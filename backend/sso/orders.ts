import type { Insertable, Kysely, Selectable } from "kysely";
import type { Database } from "../db";
import type { StoreOrdersTable } from "./tables";

/** POST /store/getOrderDetail's data: a card-payment order, without its buyer's identity. */
export interface OrderDetail {
  sessionId: string;
  productId: string;
  productName: string;
  quantity: number;
  amountCents: number;
  currency: string;
  status: StoreOrdersTable["status"];
  createdAt: string;
  paidAt: string | null;
}

function orderDetail(row: Selectable<StoreOrdersTable>): OrderDetail {
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
    async bySessionId(sessionId: string): Promise<OrderDetail | null> {
      const row = await db.selectFrom("store_orders").selectAll().where("session_id", "=", sessionId).executeTakeFirst();
      return row ? orderDetail(row) : null;
    },

    async insert(order: Insertable<StoreOrdersTable>): Promise<void> {
      await db.insertInto("store_orders").values(order).execute();
    },
  };
}

import { randomUUID } from "node:crypto";
import type { Kysely, Selectable, Updateable } from "kysely";
import type { Database } from "../../types";
import type { StoreOrder } from "~core/api/sso";
import { CARD_CURRENCY, type CardBox } from "~core/card-payment";
import type { SignedForge } from "./store-delivery";
import type { StoreOrdersTable } from "../shared/tables";

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
    deliveredAt: row.delivered_at,
    deliveryTx: row.delivery_tx,
  };
}

export type OrderRow = Selectable<StoreOrdersTable>;

export function createCardOrders(db: Kysely<Database>) {
  const now = () => new Date().toISOString();

  /** Writes `changes` to the order of `sessionId` if `token` still holds its delivery: whether it did. */
  async function updateHeld(sessionId: string, token: string, changes: Updateable<StoreOrdersTable>): Promise<boolean> {
    const result = await db
      .updateTable("store_orders")
      .set(changes)
      .where("session_id", "=", sessionId)
      .where("delivering_token", "=", token)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  return {
    detail: orderDetail,

    async bySessionId(sessionId: string): Promise<OrderRow | null> {
      return (await db.selectFrom("store_orders").selectAll().where("session_id", "=", sessionId).executeTakeFirst()) ?? null;
    },

    /** A pending order of `quantity` boxes for the account, whose boxes go to `wallet` once paid. */
    async create(input: {
      sessionId: string;
      userId: number | null;
      wallet: string | null;
      box: CardBox;
      quantity: number;
    }): Promise<OrderRow> {
      return db
        .insertInto("store_orders")
        .values({
          session_id: input.sessionId,
          user_id: input.userId,
          wallet_address: input.wallet,
          product_id: String(input.box.typeBox),
          product_name: input.box.title,
          quantity: input.quantity,
          amount_cents: input.box.cardPriceCents * input.quantity,
          currency: CARD_CURRENCY,
          status: "pending",
          created_at: now(),
          paid_at: null,
          delivery_tx: null,
          delivered_at: null,
          last_error: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /**
     * A provider said the pending order is paid: true for the one call that made it so (concurrent copies of the
     * event included), false when it was paid, delivered or failed already.
     */
    async markPaid(sessionId: string): Promise<boolean> {
      const result = await db
        .updateTable("store_orders")
        .set({ status: "paid", paid_at: now() })
        .where("session_id", "=", sessionId)
        .where("status", "=", "pending")
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    /**
     * Paid orders whose boxes are not delivered yet, oldest first: the delivery role's work. All of them (a few at a
     * time, normally): a cut-off would let orders that keep failing hide newer ones.
     */
    async awaitingDelivery(): Promise<OrderRow[]> {
      return db.selectFrom("store_orders").selectAll().where("status", "=", "paid").orderBy("id").execute();
    },

    /**
     * Takes the right to deliver a paid order, for the holder of the delivery role (db/roles.ts), which is the only
     * process delivering: a claim an earlier holder left (it died, or lost the role) is replaced. Every later write
     * of the delivery names the token, so an earlier holder that still runs can no longer store or settle a forge.
     * Null once the order is no longer paid (delivered).
     */
    async claimDelivery(sessionId: string): Promise<string | null> {
      const token = randomUUID();
      const result = await db
        .updateTable("store_orders")
        .set({ delivering_since: now(), delivering_token: token })
        .where("session_id", "=", sessionId)
        .where("status", "=", "paid")
        .executeTakeFirst();
      return result.numUpdatedRows === 1n ? token : null;
    },

    /** The forge of a delivery, stored before it is sent (null: the one stored can never be mined); false once the claim is lost. */
    deliveryForge(sessionId: string, token: string, forge: SignedForge | null): Promise<boolean> {
      return updateHeld(sessionId, token, { delivery_forge: forge && JSON.stringify(forge) });
    },

    async delivered(sessionId: string, token: string, txHash: string): Promise<void> {
      await updateHeld(sessionId, token, {
        status: "delivered",
        delivering_token: null,
        delivery_tx: txHash,
        delivery_forge: null,
        delivered_at: now(),
        last_error: null,
      });
    },

    /** The delivery failed: paid still, so a later attempt delivers it (following a stored forge); the error is kept. */
    async deliveryFailed(sessionId: string, token: string, error: string): Promise<void> {
      await updateHeld(sessionId, token, { delivering_token: null, last_error: error.slice(0, 500) });
    },

    /** The holder stopped mid-delivery: the claim ends, the stored forge stays for the next holder to send again. */
    async releaseDelivery(sessionId: string, token: string): Promise<void> {
      await updateHeld(sessionId, token, { delivering_token: null });
    },

    /** A paid order that does not match its payment: it is never delivered, and the mismatch is kept. */
    async paymentMismatch(sessionId: string, error: string): Promise<void> {
      await db
        .updateTable("store_orders")
        .set({ last_error: error.slice(0, 500) })
        .where("session_id", "=", sessionId)
        .execute();
    },

    /** The checkout expired or the payment failed: only a pending order ends so. */
    async fail(sessionId: string, reason: string): Promise<void> {
      await db
        .updateTable("store_orders")
        .set({ status: "failed", last_error: reason.slice(0, 500) })
        .where("session_id", "=", sessionId)
        .where("status", "=", "pending")
        .execute();
    },

    async eventSeen(eventId: string): Promise<boolean> {
      return Boolean(await db.selectFrom("store_payment_events").select("event_id").where("event_id", "=", eventId).executeTakeFirst());
    },

    async recordEvent(event: { id: string; type: string; sessionId: string | null }): Promise<void> {
      await db
        .insertInto("store_payment_events")
        .values({ event_id: event.id, type: event.type, session_id: event.sessionId, received_at: now() })
        .onConflict((oc) => oc.column("event_id").doNothing())
        .execute();
    },
  };
}

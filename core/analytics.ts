/**
 * The analytics events (product §7: content selection and purchase), as the app and the SSO backend send them,
 * and the sink they go to (`ANALYTICS_SINK`). Both sides send these shapes, so they are declared once here.
 */
import { boxTitle, type PaymentCurrency } from "./boxes";
import { formatWei } from "./money";

export interface PurchaseEvent {
  event: "purchase";
  /** Decimal amount in `currency` (wei formatted with its decimals). */
  value: string;
  currency: string;
  transaction_id: string;
  items: { item_id: string; item_name: string; item_category: string; price: string; quantity: number }[];
}

/** A player opened something (GA4's select_content): an item's page, or a loot box (by the box's token id). */
export interface SelectContentEvent {
  event: "select_content";
  content_type: "item" | "loot_box";
  item_id: string;
}

export type AnalyticsEvent = PurchaseEvent | SelectContentEvent;

/** `log`: one JSON line on stdout; `off`: nothing; `http`: a POST of each event as JSON. */
export type AnalyticsSink = { kind: "log" } | { kind: "off" } | { kind: "http"; url: string };

/**
 * Sends one event to the sink: `log` writes it as one JSON line, `http` POSTs it and resolves only on a 2xx answer,
 * `off` drops it. The app (fire and forget) and the SSO executor (retried until taken) both send through here.
 */
export async function sendToSink(
  sink: AnalyticsSink,
  payload: object,
  { write, fetchImpl = fetch }: { write: (line: string) => void; fetchImpl?: typeof fetch },
): Promise<void> {
  if (sink.kind === "off") return;
  if (sink.kind === "log") return write(JSON.stringify({ analytics: payload }));
  const response = await fetchImpl(sink.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(payload),
    signal: AbortSignal.timeout(5_000),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`the analytics sink answered ${response.status}`);
}

/** A loot box purchase as the sale's BoxesPurchased event records it. */
export interface BoxPurchase {
  txHash: string;
  buyer: string;
  typeBox: number;
  quantity: number;
  currency: PaymentCurrency;
  /** What the sale took for all the boxes, in wei. */
  amountPaid: bigint;
}

/** The purchase event of a loot box purchase: the total paid, and the boxes as one line at their unit price. */
export function boxPurchaseEvent(purchase: BoxPurchase): PurchaseEvent {
  return {
    event: "purchase",
    value: formatWei(purchase.amountPaid),
    currency: purchase.currency,
    transaction_id: purchase.txHash,
    items: [
      {
        item_id: `lootbox-${purchase.typeBox}`,
        item_name: boxTitle(purchase.typeBox),
        item_category: "Loot box",
        price: formatWei(purchase.amountPaid / BigInt(purchase.quantity)),
        quantity: purchase.quantity,
      },
    ],
  };
}

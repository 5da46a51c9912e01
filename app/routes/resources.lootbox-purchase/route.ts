/**
 * POST /resources/lootbox-purchase (txHash): the browser-wallet island's report of a confirmed loot box purchase,
 * for the `purchase` analytics event. Only the hash is taken from the browser: the event is built from that
 * transaction's BoxesPurchased event on chain, and only when the buyer is the wallet bound to this session.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { emitBoxPurchaseOnce } from "~/features/lootbox/lootbox-analytics.server";
import { reportTransaction } from "~/features/lootbox/transaction-report.server";

export const action = ({ request }: ActionFunctionArgs) => reportTransaction(request, emitBoxPurchaseOnce, false);

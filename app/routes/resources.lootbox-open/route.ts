/**
 * POST /resources/lootbox-open (txHash): the browser-wallet island's report of a confirmed opening, for the boxes'
 * `select_content` analytics events. Only the hash is taken from the browser: the boxes are the opener's BoxOpened
 * events in that transaction on chain, and only those of the wallet bound to this session.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { emitBoxOpensOnce } from "~/features/lootbox/lootbox-analytics.server";
import { reportTransaction } from "~/features/lootbox/transaction-report.server";

export const action = ({ request }: ActionFunctionArgs) => reportTransaction(request, emitBoxOpensOnce, 0);

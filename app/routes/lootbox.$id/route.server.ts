/**
 * The loot box page's server work; routes/lootbox.$id/route.tsx only delegates. The route imports no other server
 * module, so its browser build gets no empty stubs of shared services and none of the modules only the loader
 * uses (wallet mode, the buy offer, the action limits): docs/architecture.md "Inside app/".
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { purchaseBlockedNote, purchaseLimits } from "~/features/lootbox/lootbox-rules";
import { buyOffer } from "~/features/lootbox/lootbox-offer";
import { usesWebPath } from "~/domain/wallet-mode";
import { newIdempotencyKey } from "~/features/actions/actions.server";
import { getAuth } from "~/services/apis.server";
import { publicChainConfig, readShopForRequest } from "~/services/chain.server";
import { lootboxAction } from "~/features/lootbox/lootbox-actions.server";
import { findBox } from "~core/boxes";
import { MAX_BOXES_PER_OPEN_ACTION } from "~core/constants";

export { loaderCacheControl } from "~/services/page-headers.server";

/** The box type named by the URL, or a 404 for anything that is not a box type we sell. */
function boxTypeParam(id: string | undefined): number {
  const typeBox = id && /^\d{1,3}$/.test(id) ? Number(id) : NaN;
  if (!findBox(typeBox)) throw new Response("Not found", { status: 404 });
  return typeBox;
}

/**
 * Prices, limits and the bound wallet's boxes from the chain. A managed wallet (product §4 web path) also gets
 * its forms: what it may buy now, its boxes of this type, and a fresh idempotency key per form; the page is then
 * never cached, so going back to it never re-posts an old key.
 */
export async function lootboxPage({ request, params }: LoaderFunctionArgs) {
  const typeBox = boxTypeParam(params.id);
  const [shop, { token, user }] = await Promise.all([readShopForRequest(request, [typeBox]), getAuth(request)]);
  const bound = user ? { address: user.WalletAddress, bindAddrType: user.BindAddrType } : null;
  const webPath = usesWebPath(Boolean(token), bound);
  // The web path's words when its forms cannot be offered (the chain is down), sent as data: the page's JavaScript
  // is at its budget (tests/e2e/nojs/js-budget.spec.ts).
  const unavailable = webPath ? "Buying and opening are unavailable while the chain is not answering." : null;
  const page = { typeBox, shop, chain: publicChainConfig(), unavailable, managed: null };
  if (!webPath || !shop.available || !shop.wallet) return page;
  const { sale, wallet } = shop;
  const boxIds = wallet.boxes.filter((box) => box.typeBox === typeBox).map((box) => box.id.toString());
  const limits = purchaseLimits({ ...sale[0], window: wallet.windows[typeBox] });
  const managed = {
    offer: buyOffer(findBox(typeBox)!, sale[0].prices, limits, purchaseBlockedNote(limits)),
    keys: { buy: newIdempotencyKey(), open: newIdempotencyKey(), openAll: newIdempotencyKey() },
    boxIds: boxIds.slice(0, MAX_BOXES_PER_OPEN_ACTION),
    owned: boxIds.length,
    hasBnb: wallet.balances.BNB > 0n,
  };
  return data({ ...page, managed }, { headers: { "Cache-Control": "no-store" } });
}

/** The managed wallet's forms (buy, open, open all, open now): each starts an executor action and redirects to its status. */
export async function lootboxPost({ request, params }: ActionFunctionArgs) {
  return lootboxAction(request, boxTypeParam(params.id));
}

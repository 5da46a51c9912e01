/**
 * Storage, server side: the wallet's items, sales and favorites from the market API, and "Cancel all listings".
 * routes/marketplace.storage/route.tsx only delegates, so the page ships none of what only the server uses.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { BIND_WALLET_MESSAGE } from "~/components/notices";
import { STORAGE_PATH, typeLinks } from "~/features/market/filters/shared";
import type { PillNavItem } from "~/components/pill-nav";
import {
  parseStorageFilter,
  serializeStorageFilter,
  STORAGE_TAB_KEYS,
  storageHref,
  toStorageQuery,
  type StorageTab,
} from "~/features/market/filters/storage";
import { pageHrefs } from "~/features/market/paging";
import { checksummed } from "~/features/market/listing";
import type { CancelAllOffer, ItemCardModel, PageInfo } from "~/features/market/market-views";
import { loginHref } from "~/domain/login-href";
import { apis, backendProblem, publicApis, signedInApis } from "~/services/apis.server";
import { storageMove } from "~/features/bridge/bridge.server";
import { cancelAllOffer, cardView } from "~/features/market/market-views.server";
import { readCancelAll } from "~/features/market/trade-action-schemas.server";
import { custodian } from "~/services/orders.server";
import { makeToast, redirectWithToast } from "~/services/session.server";
import { BIND_ADDR_TYPE } from "~core/api/sso";
import { canonicalView } from "~/features/market/market-urls.server";
import { receivedOffersView, type ReceivedOffersView } from "~/features/offers/received-offers.server";

const ENDPOINT = { items: "myStorage", selling: "selling", favorites: "myFavorite" } as const satisfies Record<StorageTab, string>;

export type StorageView = { search: string; notices: string[] } & (
  | { state: "visitor"; loginHref: string }
  | { state: "no-wallet" }
  | {
      state: "wallet";
      wallet: string;
      tab: StorageTab;
      tabHrefs: Record<StorageTab, string>;
      typeLinks: PillNavItem[];
      pageHrefs: Record<number, string>;
      items: ItemCardModel[];
      info: PageInfo | null;
      problem: string | null;
      cancelAll: CancelAllOffer | null;
      /** Issue 30: open offers on the wallet's items; null when the market could not say. */
      offers: ReceivedOffersView | null;
    }
);

export async function storagePage({ request }: LoaderFunctionArgs) {
  const { filter, notices: parseNotices } = parseStorageFilter(new URL(request.url).searchParams);
  const search = serializeStorageFilter(filter);
  const { notices, headers } = await canonicalView(request, { path: STORAGE_PATH, canonical: search, parseNotices });
  const here = storageHref(filter);
  // The page carries the item moves' idempotency keys: never from a cache (Back would replay a used key).
  headers.set("Cache-Control", "no-store");
  const view = (data: StorageView, status = 200) => json(data, { status, headers });
  const { user, wallet, orders, offers } = await apis(request);
  if (!user) return view({ search, notices, state: "visitor", loginHref: loginHref(here) });
  if (!wallet) return view({ search, notices, state: "no-wallet" });
  const shown = {
    search,
    notices,
    state: "wallet" as const,
    wallet,
    tab: filter.tab,
    tabHrefs: Object.fromEntries(STORAGE_TAB_KEYS.map((tab) => [tab, storageHref({ tab, nftType: filter.nftType, page: 1 })])) as Record<
      StorageTab,
      string
    >,
    typeLinks: typeLinks(filter.nftType, (nftType) => storageHref({ ...filter, nftType, page: 1 })),
  };
  try {
    const page = await publicApis().market[ENDPOINT[filter.tab]](toStorageQuery(filter, wallet));
    const info = { page: filter.page, pageSize: page.pageSize, total: page.total, capped: page.totalCapped };
    return view({
      ...shown,
      pageHrefs: pageHrefs(info, (number) => storageHref({ ...filter, page: number })),
      items: page.records.map((record) => {
        const card = cardView(record, here);
        return filter.tab === "items"
          ? { ...card, move: storageMove(record, card.href, here, user.BindAddrType === BIND_ADDR_TYPE.managed) }
          : card;
      }),
      info,
      problem: null,
      cancelAll: filter.tab === "selling" && page.total > 0 ? await cancelAllOffer(orders, user) : null,
      offers: await receivedOffersView({ orders, offers }, user, wallet, here, filter.offersPage ?? 1).catch(() => null),
    });
  } catch (error) {
    const problem = backendProblem(error);
    return view(
      { ...shown, pageHrefs: {}, items: [], info: null, problem: problem.message, cancelAll: null, offers: null },
      problem.status,
    );
  }
}

/**
 * "Cancel all listings": one signed counter bump ends every listing of the wallet. A managed wallet posts
 * nothing to sign (the SSO signs with the current counter); a browser wallet posts the counter it signed.
 */
export async function storagePost({ request }: ActionFunctionArgs) {
  const { user, orders } = await signedInApis(request);
  const back = new URL(request.url).pathname + new URL(request.url).search;
  const form = readCancelAll(await request.formData());
  if (!form) return json({ failed: "Unknown action." }, { status: 400 });
  if (!user.WalletAddress) return json({ failed: BIND_WALLET_MESSAGE }, { status: 400 });
  const { counter, proof } = form;
  const address = checksummed(user.WalletAddress);
  try {
    const result =
      user.BindAddrType === BIND_ADDR_TYPE.managed
        ? await orders.cancelAll(address, counter, custodian())
        : await orders.cancelAll(address, proof ? (counter ?? "") : counter, proof);
    const message = result.cancelled === 1 ? "Cancelled 1 listing." : `Cancelled ${result.cancelled} listings.`;
    return redirectWithToast(request, back, makeToast("success", message));
  } catch (error) {
    const problem = backendProblem(error);
    return json({ failed: problem.message }, { status: problem.status });
  }
}

export { loaderCacheControl } from "~/services/page-headers.server";

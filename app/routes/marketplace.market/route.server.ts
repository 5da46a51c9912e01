/**
 * The market, server side: the listings from the market API, and everything the page shows of its filter (chips,
 * form values, type and page links), so routes/marketplace.market/route.tsx carries no filter codec.
 */
import { json } from "@remix-run/node";
import { filterChips, marketFormValues } from "~/features/market/filters/chips";
import { marketHref, parseMarketFilter, serializeMarketFilter, toMarketQuery, withPage, withType } from "~/features/market/filters/market";
import { MARKET_PATH, NFT_TYPE_LABELS, typeLinks } from "~/features/market/filters/shared";
import type { ItemCardModel, PageInfo } from "~/features/market/market-views";
import { pageHrefs } from "~/features/market/paging";
import { backendProblem, publicApis } from "~/services/apis.server";
import { cardView } from "~/features/market/market-views.server";
import { itemGridHtml } from "~/features/market/item-grid.server";
import { serverMarkup } from "~/services/server-html.server";
import { canonicalView } from "~/features/market/market-urls.server";
import { MARKET_DESCRIPTION, shareFor } from "~/services/share-tags.server";
import type { HistoryPeriod } from "~core/api/market";
import { marketNumbers } from "~/features/numbers/numbers.server";
import { watchControl } from "~/features/watches/watches.server";
export { loaderCacheControl } from "~/services/page-headers.server";
import { collectionTerms } from "~/features/offers/collection-filter.server";

const ITEMS_LABEL = "Items on sale";

/**
 * A visitor's page (no cookie) is cached by its URL and the market's page generation (server/page-cache.ts, server.ts):
 * what this route renders for a visitor may depend on nothing else, and a page that sets a cookie is never kept.
 */
export async function marketPage(request: Request) {
  const { filter, notices: parseNotices } = parseMarketFilter(new URL(request.url).searchParams);
  const search = serializeMarketFilter(filter);
  const { notices, headers } = await canonicalView(request, { path: MARKET_PATH, canonical: search, parseNotices });
  const here = marketHref(filter);
  let items: ItemCardModel[] = [];
  let problem: { message: string; status: number } | null = null;
  let info: PageInfo = { page: filter.page, pageSize: filter.pageSize, total: 0, capped: false };
  const periodHref = (period: HistoryPeriod) => marketHref({ ...filter, period: period === "30d" ? undefined : period });
  const [listings, numbers, watch] = await Promise.all([
    // The market is public: no token, so an expired session never gets in the way of browsing.
    publicApis()
      .market.tradingMarket(toMarketQuery(filter))
      .then(
        (page) => ({ page }),
        (error: unknown) => ({ error }),
      ),
    marketNumbers(filter, periodHref, headers),
    watchControl(request, filter),
  ]);
  if ("error" in listings) {
    problem = backendProblem(listings.error);
  } else {
    items = listings.page.records.map((record) => cardView(record, here));
    info = { ...info, total: listings.page.total, capped: listings.page.totalCapped };
  }
  const title = filter.nftType === undefined ? "Market" : `${NFT_TYPE_LABELS[filter.nftType]} · Market`;
  return json(
    {
      search,
      title,
      // Issue 42: a view's canonical URL is its canonical filter's (sorted keys, no defaults, no page=1).
      share: shareFor(request, { title, description: MARKET_DESCRIPTION, canonicalSearch: search }),
      notices,
      // Decision 0037: the cards are read-only links, rendered once per content as server markup.
      grid: items.length > 0 ? serverMarkup(itemGridHtml(items, ITEMS_LABEL)) : null,
      info,
      problem: problem?.message ?? null,
      form: marketFormValues(filter),
      chips: filterChips(filter),
      typeLinks: typeLinks(filter.nftType, (nftType) => marketHref(withType(filter, nftType))),
      pageHrefs: pageHrefs(info, (page) => marketHref(withPage(filter, page))),
      numbers,
      watch,
      // Issue 30: a view of one type takes a collection offer (the form is on the offers page; a plain link here).
      offerHref: collectionTerms(filter)?.offerHref ?? null,
    },
    { status: problem?.status ?? 200, headers },
  );
}

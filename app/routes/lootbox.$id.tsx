import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useLocation, useRevalidator, useRouteLoaderData } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { ClientOnly } from "remix-utils/client-only";
import { GeneralErrorBoundary } from "~/components/error-page";
import { BoxLimits, BoxPrices, NEEDS_WALLET_TEXT, OwnedBoxes, RankBadge, ShopUnavailable } from "~/components/lootbox/catalogue";
import { WalletBalances } from "~/components/lootbox/balances";
import { GasNotice, ManagedBuyForm, ManagedOpenForms } from "~/components/lootbox/managed-forms";
import { purchaseBlockedNote, purchaseLimits } from "~/components/lootbox/rules";
import { LoginPrompt, Page, Section } from "~/components/page";
import { findBox } from "~core/boxes";
import { MAX_BOXES_PER_OPEN_ACTION } from "~core/constants";
import { loginHref } from "~/domain/safe-redirect";
import { usesWebPath } from "~/domain/wallet-mode";
import type { RootLoader } from "~/root";
import { getAuth } from "~/services/apis.server";
import { publicChainConfig, readShopForRequest } from "~/services/chain.server";
import { newIdempotencyKey } from "~/services/actions.server";
import { lootboxAction } from "~/services/lootbox-actions.server";
import { loaderCacheControl } from "~/services/page-headers.server";
import { buyOffer } from "~/domain/lootbox-offer";

const LootboxPanel = lazy(() => import("~/islands/lootbox-panel.client"));

export const meta: MetaFunction = ({ params }) => [{ title: `${findBox(Number(params.id))?.title ?? "Loot box"} | Spark Era` }];

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
export async function loader({ request, params }: LoaderFunctionArgs) {
  const typeBox = boxTypeParam(params.id);
  const [shop, { token, user }] = await Promise.all([readShopForRequest(request, [typeBox]), getAuth(request)]);
  const bound = user ? { address: user.WalletAddress, bindAddrType: user.BindAddrType } : null;
  const webPath = usesWebPath(Boolean(token), bound);
  const page = { typeBox, shop, chain: publicChainConfig(), webPath, managed: null };
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

export const headers = loaderCacheControl;

/** The managed wallet's forms (buy, open, open all, open now): each starts an executor action and redirects to its status. */
export async function action({ request, params }: ActionFunctionArgs) {
  return lootboxAction(request, boxTypeParam(params.id));
}

export default function LootboxRoute() {
  const { typeBox, shop, chain, webPath, managed } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const root = useRouteLoaderData<RootLoader>("root");
  const location = useLocation();
  const revalidator = useRevalidator();
  const entry = findBox(typeBox)!;
  const sale = shop.sale?.[0];
  const wallet = shop.wallet;
  const limits = sale ? purchaseLimits({ ...sale, window: wallet?.windows[typeBox] }) : null;
  const user = root?.user ?? null;

  return (
    <Page title={entry.title} intro={entry.content} actions={<RankBadge typeBox={typeBox} />}>
      {!shop.available && <ShopUnavailable />}
      <Section title="Price and limits" id="price">
        <BoxPrices sale={sale} />
        <BoxLimits entry={entry} sale={sale} wallet={wallet} />
      </Section>
      <Section title="Buy and open" id="buy">
        {managed && wallet ? (
          <div className="flex flex-col gap-6">
            <GasNotice address={wallet.address} hasBnb={managed.hasBnb} />
            <ManagedBuyForm
              title={entry.title}
              offer={managed.offer}
              idempotencyKey={managed.keys.buy}
              answer={answer}
              wallet={<WalletBalances wallet={wallet} />}
            />
            <ManagedOpenForms title={entry.title} boxIds={managed.boxIds} owned={managed.owned} keys={managed.keys} answer={answer} />
          </div>
        ) : webPath ? (
          <p className="muted">Buying and opening are unavailable while the chain is not answering.</p>
        ) : (
          <ClientOnly fallback={<p className="muted">{NEEDS_WALLET_TEXT}</p>}>
            {() =>
              sale ? (
                <Suspense fallback={<p role="status">Loading the wallet tools…</p>}>
                  <LootboxPanel
                    chain={chain}
                    typeBox={typeBox}
                    title={entry.title}
                    prices={sale.prices}
                    maxQuantity={limits?.maxQuantity ?? 0}
                    limitNote={limits && purchaseBlockedNote(limits)}
                    boxIds={wallet?.boxes.filter((box) => box.typeBox === typeBox).map((box) => box.id) ?? []}
                    account={{
                      loggedIn: Boolean(user),
                      bound: user ? { address: user.walletAddress, bindAddrType: user.bindAddrType } : null,
                    }}
                    here={location.pathname}
                    onConfirmed={revalidator.revalidate}
                  />
                </Suspense>
              ) : (
                <p className="muted">Buying is unavailable while the chain is not answering.</p>
              )
            }
          </ClientOnly>
        )}
      </Section>
      <Section title="Your boxes" id="your-boxes">
        {wallet ? (
          <div className="flex flex-col gap-3">
            {!managed && <WalletBalances wallet={wallet} />}
            <OwnedBoxes boxes={wallet.boxes} />
          </div>
        ) : user ? (
          <p className="muted">
            No wallet is bound to your account yet.{" "}
            <Link to={`/login?act=connect&redirect=${encodeURIComponent(location.pathname)}`}>Bind a wallet</Link> to see its boxes here.
          </p>
        ) : (
          <LoginPrompt href={loginHref(location.pathname)} what="see the boxes in the wallet bound to your account" />
        )}
      </Section>
    </Page>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation, useRevalidator, useRouteLoaderData } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { ClientOnly } from "remix-utils/client-only";
import { GeneralErrorBoundary } from "~/components/error-page";
import { BoxLimits, BoxPrices, NEEDS_WALLET_TEXT, OwnedBoxes, RankBadge, ShopUnavailable } from "~/components/lootbox/catalogue";
import { WalletBalances } from "~/components/lootbox/balances";
import { purchaseBlockedNote, purchaseLimits } from "~/components/lootbox/rules";
import { LoginPrompt, Page, Section } from "~/components/page";
import { findBox } from "~core/boxes";
import { loginHref } from "~/domain/safe-redirect";
import type { RootLoader } from "~/root";
import { publicChainConfig, readShopForRequest } from "~/services/chain.server";

const LootboxPanel = lazy(() => import("~/islands/lootbox-panel.client"));

export const meta: MetaFunction = ({ params }) => [{ title: `${findBox(Number(params.id))?.title ?? "Loot box"} | Spark Era` }];

/** The box type named by the URL, or a 404 for anything that is not a box type we sell. */
function boxTypeParam(id: string | undefined): number {
  const typeBox = id && /^\d{1,3}$/.test(id) ? Number(id) : NaN;
  if (!findBox(typeBox)) throw new Response("Not found", { status: 404 });
  return typeBox;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const typeBox = boxTypeParam(params.id);
  const shop = await readShopForRequest(request, [typeBox]);
  return { typeBox, shop, chain: publicChainConfig() };
}

export default function LootboxRoute() {
  const { typeBox, shop, chain } = useLoaderData<typeof loader>();
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
      </Section>
      <Section title="Your boxes" id="your-boxes">
        {wallet ? (
          <div className="flex flex-col gap-3">
            <WalletBalances wallet={wallet} />
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

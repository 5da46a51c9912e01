import type { MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useLocation, useRevalidator, useRouteLoaderData } from "@remix-run/react";
import { ClientOnly } from "remix-utils/client-only";
import { GeneralErrorBoundary } from "~/components/error-page";
import {
  BoxArt,
  BoxLimits,
  BoxPrices,
  NEEDS_WALLET_TEXT,
  OwnedBoxes,
  RankBadge,
  SaleTerms,
  ShopUnavailable,
} from "~/features/lootbox/catalogue";
import { WalletBalances } from "~/features/lootbox/balances";
import { LootboxWalletActions } from "~/features/lootbox/wallet-actions";
import { GasNotice } from "~/features/actions/form-parts";
import { ManagedBuyForm, ManagedOpenForms } from "~/features/lootbox/managed-forms";
import { purchaseBlockedNote, purchaseLimits } from "~/features/lootbox/lootbox-rules";
import { LoginPrompt, Page, Section } from "~/components/page";
import { findBox } from "~core/boxes";
import { loginHref } from "~/domain/login-href";
import type { RootLoader } from "~/root";
import { loaderCacheControl, lootboxPage, lootboxPost } from "~/routes/lootbox.$id/route.server";

export const meta: MetaFunction = ({ params }) => [{ title: `${findBox(Number(params.id))?.title ?? "Loot box"} | Spark Era` }];

export const loader = lootboxPage;

export const headers = loaderCacheControl;

export const action = lootboxPost;

export default function LootboxRoute() {
  const { typeBox, shop, chain, unavailable, managed } = useLoaderData<typeof loader>();
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
    <Page
      title={entry.title}
      intro={entry.content}
      actions={
        <div className="flex flex-col items-start gap-2 sm:items-end">
          <BoxArt typeBox={typeBox} size={144} />
          <RankBadge typeBox={typeBox} />
        </div>
      }
    >
      {!shop.available && <ShopUnavailable />}
      <Section title="Price and limits" id="price">
        <BoxPrices sale={sale} />
        <SaleTerms sale={sale} />
        <BoxLimits entry={entry} sale={sale} wallet={wallet} />
        {entry.cardPriceCents !== null && (
          <p className="mt-3 text-sm">
            No crypto? <Link to={`/stripe/demo?box=${typeBox}`}>Pay by bank card</Link> instead.
          </p>
        )}
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
        ) : unavailable ? (
          <p className="muted">{unavailable}</p>
        ) : (
          <div className="island-room-wallet">
            <ClientOnly fallback={<p className="muted">{NEEDS_WALLET_TEXT}</p>}>
              {() =>
                sale ? (
                  <LootboxWalletActions
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
                ) : (
                  <p className="muted">Buying is unavailable while the chain is not answering.</p>
                )
              }
            </ClientOnly>
          </div>
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

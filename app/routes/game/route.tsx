import type { MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useLocation, useRevalidator, useRouteLoaderData } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { ClientOnly } from "remix-utils/client-only";
import { GameChainSection } from "~/features/bridge/game-chain";
import { BoxCatalogue } from "~/features/lootbox/box-catalogue";
import { NEEDS_WALLET_TEXT, OwnedBoxes, ShopUnavailable } from "~/features/lootbox/catalogue";
import { StoreLinks } from "~/components/store-links";
import { LoginPrompt, Page, Section } from "~/components/page";
import type { RootLoader } from "~/root";
import { gamePage, gamePost, loaderCacheControl } from "~/routes/game/route.server";

const BridgePanel = lazy(() => import("~/features/bridge/bridge-panel.client"));

export const meta: MetaFunction = () => [{ title: "Game | Spark Era" }];

export const loader = gamePage;

export const headers = loaderCacheControl;

export const action = gamePost;

export default function Game() {
  const root = useRouteLoaderData<RootLoader>("root");
  const { shop, bridge, keys, island, login } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const user = root?.user ?? null;
  const answer = useActionData<typeof action>();
  const location = useLocation();
  return (
    <Page
      title="Spark Era, the game"
      intro="A space strategy game where heroes of four camps crew starships, explore and fight. Everything you win is yours: move it to the chain and trade it."
    >
      <Section title="Download" id="download">
        <p className="muted">Play on your phone or tablet.</p>
        {root && <StoreLinks stores={root.env.stores} />}
      </Section>
      <Section title="Loot boxes" id="lootboxes">
        <p className="muted">Each box holds heroes, spaceships, equipment, materials or pet eggs. Open x 1 to 10, open all, or open now.</p>
        <p className="mt-2 text-sm text-slate-200">{NEEDS_WALLET_TEXT}</p>
        <div className="mt-4 flex flex-col gap-4">
          {!shop.available && <ShopUnavailable />}
          <BoxCatalogue sale={shop.sale} wallet={shop.wallet} />
          {shop.wallet && (
            <div>
              <h3 className="mb-2 font-semibold text-white">Your unopened boxes</h3>
              <OwnedBoxes boxes={shop.wallet.boxes} />
            </div>
          )}
        </div>
      </Section>
      <Section title="Game and chain" id="bridge">
        <div className="flex flex-col gap-4">
          <p className="muted">
            Claim FIRE, QUARK and items from the game to your wallet with a claim the game signs, or move them from the chain back into the
            game. Items move from <Link to="/marketplace/storage">Storage</Link> and each item's page.
          </p>
          {bridge ? (
            <GameChainSection
              view={bridge}
              keys={keys}
              answer={answer}
              browserTools={
                island && user ? (
                  <ClientOnly
                    fallback={<p className="muted text-sm">Your browser wallet signs its own claims and moves: that needs JavaScript.</p>}
                  >
                    {() => (
                      <Suspense fallback={<p role="status">Loading the wallet tools…</p>}>
                        <BridgePanel
                          chain={island}
                          account={{ loggedIn: true, bound: { address: user.walletAddress, bindAddrType: user.bindAddrType } }}
                          here={`${location.pathname}#bridge`}
                          onConfirmed={revalidator.revalidate}
                          pending={(bridge.claims ?? []).filter((claim) => claim.submittable)}
                        />
                      </Suspense>
                    )}
                  </ClientOnly>
                ) : (
                  <p className="muted text-sm">Bind a wallet to your account to move assets between the game and the chain.</p>
                )
              }
            />
          ) : (
            <LoginPrompt href={login ?? "/login"} what="see your balances and move assets between the game and the chain" />
          )}
        </div>
      </Section>
    </Page>
  );
}

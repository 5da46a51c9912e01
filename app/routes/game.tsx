import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { BoxCatalogue } from "~/components/lootbox/box-catalogue";
import { NEEDS_WALLET_TEXT, OwnedBoxes, ShopUnavailable } from "~/components/lootbox/catalogue";
import { StoreLinks } from "~/components/store-links";
import { Page, Section } from "~/components/page";
import type { RootLoader } from "~/root";
import { readShopForRequest } from "~/services/chain.server";

export const meta: MetaFunction = () => [{ title: "Game | Spark Era" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return { shop: await readShopForRequest(request) };
}

export default function Game() {
  const root = useRouteLoaderData<RootLoader>("root");
  const { shop } = useLoaderData<typeof loader>();
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
      <Section title="Between the game and the chain" id="claim">
        <p className="muted">
          Claim FIRE and items from the game to your wallet with a server-signed claim, or swap them from the chain back into the game. Your
          in-game items are listed in <Link to="/marketplace/storage">Storage</Link>.
        </p>
      </Section>
    </Page>
  );
}

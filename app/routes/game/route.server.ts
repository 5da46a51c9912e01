/**
 * The game page's server work; routes/game/route.tsx only delegates (docs/architecture.md "Inside app/"): the loot box
 * catalogue from the chain, and the "Game and chain" section: the account's balances in the game and in its
 * wallet, its claims, and for a managed wallet the forms that move tokens between the two (issue 14).
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { loginHref } from "~/domain/login-href";
import { usesWebPath } from "~/domain/wallet-mode";
import { newIdempotencyKey } from "~/features/actions/actions.server";
import { apis } from "~/services/apis.server";
import { bridgeAction, bridgeChainConfig, claimRow, readBridgeWallet } from "~/features/bridge/bridge.server";
import { readShopForRequest, walletFromUserInfo } from "~/services/chain.server";
import { CURRENCIES, shownAmount } from "~core/money";

export { loaderCacheControl } from "~/services/page-headers.server";

/** A read the section can do without (shown as unavailable); an expired session's redirect still goes through. */
const orNull = <T>(read: Promise<T>): Promise<T | null> =>
  read.catch((error: unknown) => {
    if (error instanceof Response) throw error;
    return null;
  });

async function gameAndChain(request: Request) {
  const { token, user, bridge } = await apis(request);
  if (!token || !user) return null;
  const wallet = walletFromUserInfo(user.WalletAddress);
  const managed = usesWebPath(true, { address: user.WalletAddress, bindAddrType: user.BindAddrType });
  const [game, claims, onChain] = await Promise.all([
    orNull(bridge.balances().then((answer) => answer.balances)),
    orNull(bridge.claims().then((list) => list.map(claimRow))),
    wallet ? orNull(readBridgeWallet(wallet)) : null,
  ]);
  return {
    wallet,
    managed,
    // All four: sales and rebates credit USDT and BNB in the game too, though only FIRE and QUARK move to the chain.
    balances: CURRENCIES.map((currency) => ({
      currency,
      game: game ? shownAmount(game[currency], currency, "balance") : null,
      wallet: onChain ? shownAmount(onChain[currency], currency, "balance") : null,
    })),
    claims,
    hasBnb: !managed || onChain === null || onChain.BNB > 0n,
  };
}

export async function gamePage({ request }: LoaderFunctionArgs) {
  const [shop, bridge] = await Promise.all([readShopForRequest(request), gameAndChain(request)]);
  // Written here, so the page ships no redirect-checking code for it.
  const login = bridge ? null : loginHref("/game#bridge");
  if (!bridge?.managed) return data({ shop, bridge, keys: null, island: bridge?.wallet ? bridgeChainConfig() : null, login });
  // Fresh keys per render, never cached: going back never re-posts an old key.
  const submit = Object.fromEntries((bridge.claims ?? []).filter((c) => c.submittable).map((c) => [c.txId, newIdempotencyKey()]));
  const keys = { claim: newIdempotencyKey(), swap: newIdempotencyKey(), submit };
  return data({ shop, bridge, keys, island: null, login }, { headers: { "Cache-Control": "no-store" } });
}

export async function gamePost({ request }: ActionFunctionArgs) {
  return bridgeAction(request, "/game");
}

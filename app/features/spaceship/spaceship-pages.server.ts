/**
 * What every spaceship page's loader starts from (issue 15): who is asking, the wallet bound to the account, whether
 * it acts through the executor (a managed wallet, product §4 web path) or signs in the browser, and its fleet. Each
 * page's .server.ts module turns this into its own view.
 */
import { randomBytes } from "node:crypto";
import { usesWebPath } from "~/domain/wallet-mode";
import { loginHref } from "~/domain/login-href";
import { getAuth } from "~/services/apis.server";
import { walletFromUserInfo } from "~/services/chain.server";
import type { ListingRecord } from "~core/api/market";
import type { ShipState } from "~core/spaceship";
import { readFleet, spaceshipChainConfig, type Fleet } from "./spaceship.server";
import { shipCard } from "./spaceship-view";
import { shipFacts } from "./spaceship-views.server";
import { logProblem, shortError } from "~/services/request-scope.server";

export type FleetGate =
  | { state: "visitor"; loginHref: string }
  | { state: "no-wallet" }
  | { state: "down" }
  | {
      state: "fleet";
      fleet: Fleet;
      /** A managed wallet posts server forms; a browser wallet signs in the island, which needs the chain's addresses. */
      managed: boolean;
    };

export async function fleetGate(request: Request): Promise<FleetGate> {
  const url = new URL(request.url);
  const { token, user } = await getAuth(request);
  if (!token || !user) return { state: "visitor", loginHref: loginHref(url.pathname + url.search) };
  const wallet = walletFromUserInfo(user.WalletAddress);
  if (!wallet) return { state: "no-wallet" };
  try {
    const fleet = await readFleet(wallet);
    return { state: "fleet", fleet, managed: usesWebPath(true, { address: wallet, bindAddrType: user.BindAddrType }) };
  } catch (error) {
    logProblem(`Fleet read failed: ${shortError(error)}`);
    return { state: "down" };
  }
}

/**
 * How a page with ship actions acts for this fleet: a managed wallet posts server forms, whose idempotency keys are
 * a random prefix per render with each form's intent and ship (two forms never share a key, and one form posted
 * twice runs once; such pages are never cached); a browser wallet signs in the island, which needs the chain's
 * addresses.
 */
export function shipActor(gate: Extract<FleetGate, { state: "fleet" }>) {
  return gate.managed
    ? { kind: "managed" as const, keyPrefix: randomBytes(12).toString("base64url") }
    : { kind: "browser" as const, chain: spaceshipChainConfig(), wallet: gate.fleet.wallet };
}

/** The ship a page that acts on one ship (configuration, upgrade) is asked for: `?tokenId=`, 80 characters at most. */
export const requestedShip = (request: Request) => (new URL(request.url).searchParams.get("tokenId") ?? "").trim().slice(0, 80);

/** One of the fleet's ships on the chain, with the manager's view of it. */
export interface ChainShip {
  record: ListingRecord;
  state: ShipState;
}

/**
 * The fleet's ship on the chain that a page would `act` on ("configure"), or why it cannot: a ship in the game must
 * first move to the chain (409); any other is not in the wallet (404).
 */
export function shipToActOn(
  fleet: Fleet,
  tokenId: string,
  act: string,
): { ship: ChainShip; problem: null } | { ship: null; problem: string; status: 404 | 409 } {
  const mine = fleet.ships.find((ship) => ship.state && ship.record.tokenId === tokenId);
  if (mine?.state) return { ship: { record: mine.record, state: mine.state }, problem: null };
  const inGame = fleet.ships.some((ship) => ship.record.tokenId === tokenId);
  if (inGame) return { ship: null, problem: `Ship #${tokenId} is in the game: move it to the chain to ${act} it.`, status: 409 };
  return { ship: null, problem: `Ship #${tokenId} is not in your wallet.`, status: 404 };
}

/**
 * A ship as a page that acts on it shows it to its owner: its card, whether it is out exploring (which rules out
 * changes), the page's own `view` of it, and how the page acts for the wallet (shipActor).
 */
export function ownShipView<View extends object>(gate: Extract<FleetGate, { state: "fleet" }>, ship: ChainShip, view: View) {
  const { fleet } = gate;
  return {
    ...shipCard(shipFacts(ship.record), ship.state, fleet.now),
    exploring: ship.state.exploringSince > 0n,
    ...view,
    wallet: fleet.wallet,
    hasBnb: fleet.bnb > 0n,
    actor: shipActor(gate),
  };
}

export const NO_STORE = { "Cache-Control": "no-store" };

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
import { readFleet, spaceshipChainConfig, type Fleet } from "./spaceship.server";
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

export const NO_STORE = { "Cache-Control": "no-store" };

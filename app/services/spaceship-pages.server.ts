/**
 * What every spaceship page's loader starts from (issue 15): who is asking, the wallet bound to the account, whether
 * it acts through the executor (a managed wallet, product §4 web path) or signs in the browser, and its fleet. Each
 * page's .server.ts module turns this into its own view.
 */
import { randomBytes } from "node:crypto";
import { usesWebPath } from "~/domain/wallet-mode";
import { loginHref } from "~/domain/safe-redirect";
import { getAuth } from "./apis.server";
import { walletFromUserInfo } from "./chain.server";
import { readFleet, spaceshipChainConfig, type Fleet } from "./spaceship.server";

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
    console.error("Fleet read failed:", (error as { shortMessage?: string }).shortMessage ?? (error as Error).message);
    return { state: "down" };
  }
}

/**
 * The forms' idempotency keys for one render: a random prefix, and per form its intent and ship, so two forms never
 * share a key and a render's form posted twice runs once. Pages with these forms are never cached.
 */
export function formKeys() {
  const prefix = randomBytes(12).toString("base64url");
  return { prefix };
}

/** What a page hands the browser-wallet island, or null for a managed wallet. */
export function islandChain(gate: FleetGate) {
  return gate.state === "fleet" && !gate.managed ? spaceshipChainConfig() : null;
}

export const NO_STORE = { "Cache-Control": "no-store" };

import { backendProblem, publicApis } from "~/services/apis.server";
import { playerAddress, playerPath } from "./player";

/**
 * How an item page names the wallet holding an item: the player's public name linked to their page, or the bare
 * address (no href) when no player bound it or the SSO cannot say just now, so the item page never fails on it.
 */
export async function holderLink(address: string): Promise<{ holderName: string; holderHref?: string }> {
  const wallet = playerAddress(address);
  if (!wallet) return { holderName: address };
  try {
    const player = await publicApis().sso.publicUser(wallet);
    return { holderName: `${player.UserName} (${wallet})`, holderHref: playerPath(wallet) };
  } catch (error) {
    backendProblem(error); // anything but a backend failure is thrown on
    return { holderName: wallet };
  }
}

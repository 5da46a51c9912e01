import { playerPath } from "~/domain/player-path";
import { backendProblem, publicApis } from "~/services/apis.server";
import { type PlayerLabel, playerAddress, playerLabel } from "./player";

/**
 * How an item page names the wallet holding an item: the player's name linked to their page, or the wallet alone
 * (no href) when no player bound it or the SSO cannot say just now, so the item page never fails on it.
 */
export async function holderLink(address: string): Promise<{ holder: PlayerLabel & { href?: string } }> {
  const wallet = playerAddress(address);
  if (!wallet) return { holder: { name: address, named: false, wallet: address } };
  try {
    const player = await publicApis().sso.publicUser(wallet);
    return { holder: { ...playerLabel(player, wallet), href: playerPath(wallet) } };
  } catch (error) {
    backendProblem(error); // anything but a backend failure is thrown on
    return { holder: playerLabel({ DisplayName: null }, wallet) };
  }
}

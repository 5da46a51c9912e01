/** A player's public page (issue 29) is named by the wallet the player bound; the header links to the player's own. */
export const PLAYER_PATH = "/player";

/** The page of the player whose bound wallet is `address` (checksummed). */
export function playerPath(address: string): string {
  return `${PLAYER_PATH}/${address}`;
}

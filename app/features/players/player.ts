/** A player's public page (issue 29): its path, named by the wallet the player bound. */
import { getAddress, isAddress } from "viem";

export const PLAYER_PATH = "/player";

/** The page of the player whose bound wallet is `address` (checksummed). */
export function playerPath(address: string): string {
  return `${PLAYER_PATH}/${address}`;
}

/**
 * The checksummed wallet a player page's path names, or null when it names none. Lower case is accepted, as
 * GET /api/user/{walletAddress} accepts it; a mixed-case address must carry its valid checksum.
 */
export function playerAddress(segment: string): string | null {
  return isAddress(segment, { strict: true }) ? getAddress(segment) : null;
}

/** A player's public page (issue 29): the wallet its path names, and how a player is named (issue 42). */
import { getAddress, isAddress } from "viem";
import { shortAddress } from "~core/address";
import type { PublicUserInfo } from "~core/api/sso";

/**
 * The checksummed wallet a player page's path names, or null when it names none. Lower case is accepted, as
 * GET /api/user/{walletAddress} accepts it; a mixed-case address must carry its valid checksum.
 */
export function playerAddress(segment: string): string | null {
  return isAddress(segment, { strict: true }) ? getAddress(segment) : null;
}

/** How pages name a player: `name` is their display name, else their wallet's short form; never the email. */
export interface PlayerLabel {
  name: string;
  /** Whether `name` is a display name (not the wallet's short form). */
  named: boolean;
  /** The full checksummed wallet. */
  wallet: string;
}

/** An SSO that predates display names answers none: the player is named by the wallet. */
export function playerLabel(player: Pick<PublicUserInfo, "DisplayName">, wallet: string): PlayerLabel {
  const displayName = player.DisplayName ?? null;
  return displayName ? { name: displayName, named: true, wallet } : { name: shortAddress(wallet), named: false, wallet };
}

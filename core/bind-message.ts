import { getAddress } from "viem";

/**
 * The text a browser wallet signs (EIP-191 personal_sign) to bind itself to an account (POST
 * /sso/bindWalletWithAccount). The client and the backend build it with this function, so both sides sign and
 * verify the very same bytes. Signing in with a wallet is an EIP-4361 message instead (sign-in-message.ts), which
 * starts differently, so a signature for one never passes as the other.
 */

/** A signed message is refused once it is older than this... */
export const SIGNED_MESSAGE_MAX_AGE_MS = 10 * 60 * 1000;
/** ...or when its IssuedAt lies further ahead than this (clock skew between wallet host and server). */
export const SIGNED_MESSAGE_MAX_SKEW_MS = 60 * 1000;

/** LoginType of POST /sso/loginOther for a wallet sign-in (sign-in-message.ts). */
export const WALLET_LOGIN_TYPE = "wallet";

const FOOTER = "Signing is free and does not send a transaction.";

export interface BindMessageInput {
  /** The account's user name (its email); compared case-insensitively. */
  userName: string;
  /** Any valid spelling of the address; the message always carries the checksummed form. Throws when invalid. */
  address: string;
  /** ISO 8601 UTC time, e.g. new Date().toISOString(); sent verbatim as IssuedAt. */
  issuedAt: string;
}

export function bindWalletMessage({ userName, address, issuedAt }: BindMessageInput): string {
  return [
    "Spark Era: bind this wallet to your account.",
    "",
    `Account: ${userName.trim().toLowerCase()}`,
    `Wallet: ${getAddress(address)}`,
    `Issued At: ${issuedAt}`,
    "",
    FOOTER,
  ].join("\n");
}

import { getAddress } from "viem";

/**
 * The texts a browser wallet signs (EIP-191 personal_sign) for the SSO API: one to bind itself to an
 * account (POST /sso/bindWalletWithAccount), one to sign in (POST /sso/loginOther). The client and the
 * backend build them with these functions, so both sides sign and verify the very same bytes.
 * The two texts differ in their first line, so a signature for one can never pass as the other.
 */

/** A signed message is refused once it is older than this... */
export const SIGNED_MESSAGE_MAX_AGE_MS = 10 * 60 * 1000;
/** ...or when its IssuedAt lies further ahead than this (clock skew between wallet host and server). */
export const SIGNED_MESSAGE_MAX_SKEW_MS = 60 * 1000;

/** LoginType of POST /sso/loginOther for a wallet sign-in. */
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

export interface WalletLoginInput {
  address: string;
  issuedAt: string;
}

export function walletLoginMessage({ address, issuedAt }: WalletLoginInput): string {
  return ["Spark Era: sign in with this wallet.", "", `Wallet: ${getAddress(address)}`, `Issued At: ${issuedAt}`, "", FOOTER].join("\n");
}

export interface WalletLoginProof extends WalletLoginInput {
  /** 0x-prefixed 65-byte personal_sign signature of walletLoginMessage({ address, issuedAt }). */
  signature: string;
}

/** The `accessToken` of POST /sso/loginOther with LoginType "wallet": the proof as a JSON string. */
export function encodeWalletLoginToken({ address, issuedAt, signature }: WalletLoginProof): string {
  return JSON.stringify({ address, issuedAt, signature });
}

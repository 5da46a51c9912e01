/**
 * Sign-In with Ethereum (EIP-4361) for POST /sso/loginOther (decision 0019): the app's server builds the message
 * from an SSO nonce with the site's domain and chain id, the browser wallet signs it (personal_sign), and the SSO
 * checks each field with `signInMessageProblem` before it spends the nonce.
 */
import type { Address } from "viem";
import { createSiweMessage, parseSiweMessage, validateSiweMessage } from "viem/siwe";

/** How long a nonce, and so the message carrying it, can be signed and sent. */
export const SIGN_IN_TTL_MS = 5 * 60 * 1000;

export const SIGN_IN_STATEMENT = "Sign in to Spark Era with this wallet. Signing is free and does not send a transaction.";

/** The `accessToken` of loginOther with LoginType "wallet": this, as a JSON string. */
export interface WalletSignInProof {
  message: string;
  /** 0x-prefixed 65-byte personal_sign signature of `message`. */
  signature: string;
}

export function encodeSignInToken({ message, signature }: WalletSignInProof): string {
  return JSON.stringify({ message, signature });
}

export interface SignInMessageInput {
  /** The site's RFC 3986 authority (host[:port]) and its URL. */
  domain: string;
  uri: string;
  address: Address;
  chainId: number;
  /** From POST /sso/walletNonce, with the times it gave. */
  nonce: string;
  issuedAt: Date;
  expirationTime: Date;
}

export function signInMessage(input: SignInMessageInput): string {
  return createSiweMessage({ ...input, version: "1", statement: SIGN_IN_STATEMENT });
}

export const SIGN_IN_REFUSALS = {
  notSiwe: "accessToken.message: is not a Sign-In with Ethereum (EIP-4361) message",
  noExpiry: "This sign-in message has no expiration time, please sign the one this site gives",
  expired: "This sign-in message has expired, please sign again",
  notYet: "This sign-in message is not valid yet, please check your clock and sign again",
  replayed: "This sign-in message was already used, please sign again",
  unknownNonce: "This sign-in message's nonce was not issued here, please sign again",
  foreignDomain: (domain: string, ours: string) => `This sign-in message is for another site (${domain}), not ${ours}`,
  foreignUri: (uri: string, ours: string) => `This sign-in message is for another address (${uri}), not ${ours}`,
  wrongChain: (chainId: number, ours: number) => `This sign-in message is for chain ${chainId}, not this site's chain ${ours}`,
} as const;

function originOf(uri: string): string | null {
  try {
    return new URL(uri).origin;
  } catch {
    return null;
  }
}

export interface CheckedSignIn {
  address: Address;
  nonce: string;
}

/**
 * What is wrong with a signed-in message for this site at `now`, in words (the signature and the nonce's use are
 * checked by the caller), or its address and nonce. Each field is checked on its own, so each refusal says why.
 */
export function signInMessageProblem(
  message: string,
  expected: { domain: string; origin: string; chainId: number; now: Date },
): { problem: string } | { ok: CheckedSignIn } {
  const fields = parseSiweMessage(message);
  const { address, nonce, domain, chainId, expirationTime, notBefore } = fields;
  // validateSiweMessage without expectations checks the form: address, nonce, version and times well made.
  const wellFormed = validateSiweMessage({ message: { ...fields, expirationTime: undefined, notBefore: undefined } });
  if (!address || !nonce || !domain || chainId === undefined || !fields.uri || !wellFormed) return { problem: SIGN_IN_REFUSALS.notSiwe };
  if (domain !== expected.domain) return { problem: SIGN_IN_REFUSALS.foreignDomain(domain, expected.domain) };
  // The URI is where the wallet was asked to sign: the site's own origin, scheme and port included (issue 43).
  if (originOf(fields.uri) !== expected.origin) return { problem: SIGN_IN_REFUSALS.foreignUri(fields.uri, expected.origin) };
  if (chainId !== expected.chainId) return { problem: SIGN_IN_REFUSALS.wrongChain(chainId, expected.chainId) };
  if (!expirationTime) return { problem: SIGN_IN_REFUSALS.noExpiry };
  if (Number.isNaN(expirationTime.getTime()) || (notBefore && Number.isNaN(notBefore.getTime()))) {
    return { problem: SIGN_IN_REFUSALS.notSiwe };
  }
  if (expected.now >= expirationTime) return { problem: SIGN_IN_REFUSALS.expired };
  if (notBefore && expected.now < notBefore) return { problem: SIGN_IN_REFUSALS.notYet };
  return { ok: { address, nonce } };
}

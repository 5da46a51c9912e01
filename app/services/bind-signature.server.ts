import { isAddress, verifyMessage } from "viem";
import { bindWalletMessage, SIGNED_MESSAGE_MAX_AGE_MS, SIGNED_MESSAGE_MAX_SKEW_MS } from "~core/bind-message";

/**
 * Checked here before the SSO API is asked to bind: a forged or stale signature never leaves this server.
 * Null when the signature is good, else what to tell the user.
 */
export async function bindSignatureProblem(input: {
  userName: string;
  address: string;
  signature: string;
  issuedAt: string;
}): Promise<string | null> {
  const { userName, address, signature, issuedAt } = input;
  const age = Date.now() - Date.parse(issuedAt);
  if (!isAddress(address) || !/^0x[0-9a-fA-F]{130}$/.test(signature) || Number.isNaN(age)) {
    return "The wallet signature is incomplete. Please sign again.";
  }
  if (age > SIGNED_MESSAGE_MAX_AGE_MS || age < -SIGNED_MESSAGE_MAX_SKEW_MS) return "The wallet signature has expired. Please sign again.";
  const message = bindWalletMessage({ userName, address, issuedAt });
  const valid = await verifyMessage({ address, message, signature: signature as `0x${string}` }).catch(() => false);
  return valid ? null : "The signature does not match this wallet.";
}

/**
 * The login page's wallet sign-in, loaded on the click that starts it (features/auth/wallet-sign-in.tsx): asks the
 * wallet for its account, this server for the EIP-4361 message, and the wallet to sign it (personal_sign).
 */
import { injectedProvider, walletErrorMessage } from "./eip1193";

export type SignedSignIn = { ok: { message: string; signature: string } } | { problem: string };

const NO_WALLET = "Please install the MetaMask or OKX Wallet plugin to continue.";

export async function signInWithWallet(): Promise<SignedSignIn> {
  const provider = injectedProvider();
  if (!provider) return { problem: NO_WALLET };
  let address: string;
  try {
    [address] = (await provider.request({ method: "eth_requestAccounts" })) as string[];
  } catch (error) {
    return { problem: walletErrorMessage(error) };
  }
  const response = await fetch("/resources/wallet-sign-in", { method: "POST", body: new URLSearchParams({ address }) }).catch(() => null);
  const answer = (await response?.json().catch(() => null)) as { message?: string; error?: string } | null;
  if (!answer?.message) return { problem: answer?.error ?? "The sign-in message could not be fetched. Please try again." };
  try {
    const signature = (await provider.request({ method: "personal_sign", params: [answer.message, address] })) as string;
    return { ok: { message: answer.message, signature } };
  } catch (error) {
    return { problem: walletErrorMessage(error) };
  }
}

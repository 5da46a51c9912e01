import { bindWalletMessage } from "~core/bind-message";
import { injectedProvider, walletErrorMessage } from "./eip1193";

const INSTALL_MESSAGE = "Please install the MetaMask or OKX Wallet plugin to continue.";

export type BindSignature = { ok: { address: string; signature: string; issuedAt: string } } | { problem: string };

/** Asks the browser wallet to sign the bind message for `userName`: the fields the act=connect action checks. */
export async function signBindMessage(userName: string): Promise<BindSignature> {
  const provider = injectedProvider();
  if (!provider) return { problem: INSTALL_MESSAGE };
  try {
    const [address] = (await provider.request({ method: "eth_requestAccounts" })) as string[];
    const issuedAt = new Date().toISOString();
    const message = bindWalletMessage({ userName, address: address!, issuedAt });
    const signature = (await provider.request({ method: "personal_sign", params: [message, address] })) as string;
    return { ok: { address: address!, signature, issuedAt } };
  } catch (error) {
    return { problem: walletErrorMessage(error) };
  }
}

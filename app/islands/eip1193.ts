/** The minimal EIP-1193 surface the islands use. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
  on?(event: string, listener: (...args: unknown[]) => void): void;
  removeListener?(event: string, listener: (...args: unknown[]) => void): void;
}

/** The injected wallet: the alternative extension when it is the stored preference, otherwise the default (SPEC §4). */
export function injectedProvider(): Eip1193Provider | undefined {
  const w = window as unknown as { ethereum?: Eip1193Provider; okxwallet?: Eip1193Provider };
  const preferred = window.localStorage.getItem("preferredWallet");
  if (preferred === "okx" && w.okxwallet) return w.okxwallet;
  return w.ethereum;
}

/** Wallet errors in plain words: a rejection is the user's choice, not a failure. */
export function walletErrorMessage(error: unknown): string {
  const code = (error as { code?: number })?.code;
  if (code === 4001) return "You cancelled the request in your wallet.";
  const message = (error as { message?: string })?.message;
  return message ? `Your wallet refused: ${message}` : "Your wallet refused the request.";
}

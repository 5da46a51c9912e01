import type { Page } from "@playwright/test";
import { privateKeyToAccount } from "viem/accounts";
import { hexToString, isHex, type Hex } from "viem";

/**
 * An injected EIP-1193 test wallet. The page sees `window.ethereum`; every request crosses to Node, where
 * account requests and signatures are answered with the given dev key and everything else is forwarded
 * to the chain's JSON-RPC endpoint (the local anvil node), as a real extension would do.
 */
export async function injectTestWallet(page: Page, { privateKey, rpcUrl, chainId = 31337 }: { privateKey: Hex; rpcUrl?: string; chainId?: number }) {
  const account = privateKeyToAccount(privateKey);
  await page.exposeFunction("__testWalletRequest", async (method: string, params: unknown[] = []) => {
    switch (method) {
      case "eth_requestAccounts":
      case "eth_accounts":
        return [account.address];
      case "eth_chainId":
        return `0x${chainId.toString(16)}`;
      case "personal_sign": {
        const [data] = params as [string];
        const message = isHex(data) ? hexToString(data) : data;
        return account.signMessage({ message });
      }
      default: {
        if (!rpcUrl) throw new Error(`Test wallet has no chain for ${method}`);
        const response = await fetch(rpcUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
        });
        const body = (await response.json()) as { result?: unknown; error?: { message: string; code: number } };
        if (body.error) throw new Error(body.error.message);
        return body.result;
      }
    }
  });
  await page.addInitScript(() => {
    const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
    const bridge = (window as unknown as { __testWalletRequest: (m: string, p?: unknown[]) => Promise<unknown> }).__testWalletRequest;
    const provider = {
      isMetaMask: true,
      request: ({ method, params }: { method: string; params?: unknown[] }) => bridge(method, params ?? []),
      on: (event: string, listener: (...args: unknown[]) => void) => {
        if (!listeners.has(event)) listeners.set(event, new Set());
        listeners.get(event)!.add(listener);
      },
      removeListener: (event: string, listener: (...args: unknown[]) => void) => listeners.get(event)?.delete(listener),
    };
    (window as unknown as { ethereum: typeof provider }).ethereum = provider;
  });
  return account.address;
}

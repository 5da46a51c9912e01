/**
 * The one wagmi config and QueryClient of the page, made on first use inside an island (never on the
 * server, never at module scope), and the provider both wallet islands wrap themselves in, so the header
 * sheet and the loot box panel share one connection.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useRef, useState, type ComponentType, type ReactNode } from "react";
import { defineChain } from "viem";
import { createConfig, http, injected, useConnection, WagmiProvider, type Config } from "wagmi";
import { BROWSER_WALLETS, isWalletConnected, walletProvider } from "./eip1193";
import { setConnectedAddress } from "./connected-address";
import type { WalletId } from "~/domain/wallet-mode";
import { BSC_CHAIN_ID } from "~core/constants";
import type { PublicChainConfig } from "~/services/chain.server";

/** One injected connector per product-spec wallet; its provider comes from EIP-6963 discovery (see eip1193.ts). */
function walletConnector(id: WalletId) {
  return injected({
    target: () => ({
      id,
      name: BROWSER_WALLETS[id].name,
      provider: () => walletProvider(id) as never,
    }),
  });
}

let instance: { config: Config; queryClient: QueryClient } | undefined;

/** Only the chain's id and node: each island brings its own contract addresses. */
type WalletChain = Pick<PublicChainConfig, "chainId" | "rpcUrl">;

export function walletClients(chain: WalletChain) {
  instance ??= {
    config: createConfig({
      chains: [
        defineChain({
          id: chain.chainId,
          name: chain.chainId === BSC_CHAIN_ID ? "BNB Smart Chain" : "Spark Era chain",
          nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
          rpcUrls: { default: { http: [chain.rpcUrl] } },
        }),
      ],
      connectors: [walletConnector("metamask"), walletConnector("okx")],
      // Our two connectors already find their wallets by EIP-6963; discovery would add every other wallet too.
      multiInjectedProviderDiscovery: false,
      transports: { [chain.chainId]: http(chain.rpcUrl, { batch: true }) },
      // No multicall contract on the local node.
      batch: { multicall: false },
    }),
    queryClient: new QueryClient(),
  };
  return instance;
}

/** Mirrors wagmi's connection into the header's store (the app's own "connected" flag gates it). */
function ConnectionMirror() {
  const { address, status } = useConnection();
  const previous = useRef(status);
  useEffect(() => {
    if (status === "connected" && address && isWalletConnected()) setConnectedAddress(address);
    // Only a real disconnect clears it: wagmi starts out "disconnected" while it reconnects.
    if (status === "disconnected" && previous.current === "connected") setConnectedAddress(null);
    previous.current = status;
  }, [address, status]);
  return null;
}

/** An island's default export: its panel inside the wallet providers of the chain it was given. */
export function withWallet<P extends { chain: WalletChain }>(Panel: ComponentType<P>) {
  return function WalletIsland(props: P) {
    return (
      <WalletProviders chain={props.chain}>
        <Panel {...props} />
      </WalletProviders>
    );
  };
}

export function WalletProviders({ chain, children }: { chain: WalletChain; children: ReactNode }) {
  const { config, queryClient } = walletClients(chain);
  return (
    // Reconnect only what the user connected here and did not log out of (wagmi alone would take any authorised wallet).
    <WagmiProvider config={config} reconnectOnMount={isWalletConnected()}>
      <QueryClientProvider client={queryClient}>
        <ConnectionMirror />
        {children}
      </QueryClientProvider>
    </WagmiProvider>
  );
}

/**
 * The page's chain from /resources/chain-config, for an island whose page's loader does not send it (the header's,
 * an item's trades), and its wallet providers around `children`.
 */
export function WithChainConfig({ children }: { children: (chain: PublicChainConfig) => ReactNode }) {
  const [chain, setChain] = useState<PublicChainConfig | "failed" | null>(null);
  useEffect(() => {
    fetch("/resources/chain-config")
      .then((response) =>
        response.ok ? (response.json() as Promise<PublicChainConfig>) : Promise.reject(new Error(String(response.status))),
      )
      .then(setChain, () => setChain("failed"));
  }, []);
  if (chain === "failed") {
    return (
      <p role="alert" className="text-sm text-red-300">
        The wallets could not be loaded. Reload the page to try again.
      </p>
    );
  }
  if (!chain) return <p role="status">Loading wallets…</p>;
  return <WalletProviders chain={chain}>{children(chain)}</WalletProviders>;
}

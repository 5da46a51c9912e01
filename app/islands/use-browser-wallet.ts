/**
 * Product §4's rules before an on-chain action from a browser wallet, as a hook for the wallet islands: is there
 * an extension, which account it gives once asked, and what the wallet mode (app/domain/wallet-mode.ts) says
 * about it. Loaded with the island that uses it, inside its WalletProviders. Browser wallets only: the routes give an
 * account with a managed wallet their server forms instead of an island.
 */
import { useEffect, useState } from "react";
import type { Address } from "viem";
import { connect, getConnection, getConnectorClient, switchChain, watchConnection } from "wagmi/actions";
import { ConnectorAlreadyConnectedError, useConfig, useConnection, type Config } from "wagmi";
import { ALTERNATIVE_WALLET, DEFAULT_WALLET, walletMode, type BoundWallet, type WalletMode } from "~/domain/wallet-mode";
import { setConnectedAddress } from "./connected-address";
import { injectedProvider, requestWalletInstall, setWalletConnected, storedPreference, walletProvider } from "./eip1193";
import { ShownError, type WalletClients } from "~/islands/chain-errors";

export interface BrowserWalletOptions {
  chainId: number;
  account: { loggedIn: boolean; bound: BoundWallet | null };
  /** What to say when the account turns out to be a managed one, and when no extension is installed. */
  messages: { managed: string; noExtension: string };
}

/** The connection once wagmi has finished (re)connecting: an island that mounts on a click may start while it reconnects. */
function settledConnection(config: Config): Promise<ReturnType<typeof getConnection>> {
  const settled = (connection: ReturnType<typeof getConnection>) =>
    connection.status !== "reconnecting" && connection.status !== "connecting";
  const now = getConnection(config);
  if (settled(now)) return Promise.resolve(now);
  return new Promise((resolve) => {
    const stop = watchConnection(config, {
      onChange(connection) {
        if (!settled(connection)) return;
        stop();
        resolve(connection);
      },
    });
  });
}

export function useBrowserWallet({ chainId, account, messages }: BrowserWalletOptions) {
  const config = useConfig();
  const connection = useConnection();
  const [hasExtension, setHasExtension] = useState(true);
  useEffect(() => setHasExtension(Boolean(injectedProvider())), []);

  const connected =
    connection.status === "connected" && connection.address ? { account: connection.address, chainId: connection.chainId } : null;
  // The account is requested before any check that needs it (product §4): until then only the extension rule can speak.
  const mode: WalletMode | null = !hasExtension
    ? walletMode({ ...account, wallet: null, expectedChainId: chainId })
    : connected
      ? walletMode({ ...account, wallet: connected, expectedChainId: chainId })
      : null;
  // Without an extension the buttons stay live: pressing one brings up product §8's install dialog.
  const blocked = mode !== null && !(mode.ok && mode.path === "blockchain") && !(!mode.ok && mode.message === "no wallet extension");

  /** Product §4 before every on-chain action: request the account (connecting first), then let the wallet mode decide. */
  async function requireWallet(onConnecting: () => void): Promise<Address> {
    if (!injectedProvider()) {
      setHasExtension(false);
      requestWalletInstall();
      throw new ShownError(messages.noExtension);
    }
    let current = await settledConnection(config);
    if (current.status !== "connected") {
      onConnecting();
      const preferred = storedPreference();
      const id = walletProvider(preferred) ? preferred : preferred === DEFAULT_WALLET ? ALTERNATIVE_WALLET : DEFAULT_WALLET;
      const connector = config.connectors.find((c) => c.id === id) ?? config.connectors[0];
      const result = await connect(config, { connector, chainId }).catch((error: unknown) => {
        // wagmi connected that connector meanwhile (its reconnect, or another island's request): what was asked for.
        if (error instanceof ConnectorAlreadyConnectedError) return null;
        throw error;
      });
      current = result ? getConnection(config) : await settledConnection(config);
      setWalletConnected(true);
      setConnectedAddress(result ? result.accounts[0] : (current.address ?? null));
    }
    const decided = walletMode({
      ...account,
      wallet: current.address ? { account: current.address, chainId: current.chainId ?? 0 } : null,
      expectedChainId: chainId,
    });
    if (!decided.ok || decided.path !== "blockchain") throw new ShownError(decided.ok ? messages.managed : decided.message);
    return decided.account as Address;
  }

  /** The node through the app's transport; transactions through the wallet, as the decided account. */
  async function clientsFor(address: Address): Promise<WalletClients> {
    return {
      publicClient: config.getClient({ chainId }),
      walletClient: await getConnectorClient(config, { account: address, chainId }),
    };
  }

  const switchNetwork = () => switchChain(config, { chainId });

  return { hasExtension, connected, mode, blocked, requireWallet, clientsFor, switchNetwork, chainId, account };
}

/**
 * The Connect Wallet sheet's island, loaded when the sheet first opens: MetaMask and OKX Wallet through
 * wagmi's injected connector (EIP-6963 providers), the preferred one remembered (product §4), two options shown
 * disabled, copy address and log out.
 */
import { useEffect, useRef, useState, type ComponentType } from "react";
import { connect, disconnect } from "wagmi/actions";
import { useConfig, useConnection } from "wagmi";
import type { WalletId } from "~/domain/wallet-mode";
import type { PublicChainConfig } from "~/services/chain.server";
import { BROWSER_WALLETS, rememberPreference, setWalletConnected, storedPreference, walletErrorMessage, walletProvider } from "./eip1193";
import { WithChainConfig } from "./wagmi.client";
import { setConnectedAddress } from "./connected-address";

const isBrowserWallet = (id: string): id is WalletId => id in BROWSER_WALLETS;

/**
 * What the header already has is passed in, not imported: an island importing the header's modules would split
 * them into extra chunks that every page loads.
 */
export interface WalletSheetProps {
  chain: PublicChainConfig;
  /** product §2's four options, the last two disabled. */
  options: readonly { id: string; label: string; enabled: boolean }[];
  /** Shows a product §8 toast. */
  notify: (message: string) => void;
  CopyAddress: ComponentType<{ value: string }>;
}

function SheetBody({ chain, options, notify, CopyAddress }: WalletSheetProps) {
  const config = useConfig();
  const { address, connector, status } = useConnection();
  const [pending, setPending] = useState<WalletId | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [preferred, setPreferred] = useState<WalletId>(storedPreference);
  const list = useRef<HTMLDivElement>(null);

  // The panel was opened before this island arrived: move focus from the summary to the first option.
  useEffect(() => {
    const details = list.current?.closest("details");
    if (details?.open && document.activeElement === details.querySelector("summary")) {
      list.current?.querySelector<HTMLButtonElement>("button:not([disabled])")?.focus();
    }
  }, []);

  async function choose(id: WalletId) {
    setProblem(null);
    if (!walletProvider(id)) {
      notify(`Please install the ${BROWSER_WALLETS[id].name} plugin first.`);
      return;
    }
    const target = config.connectors.find((c) => c.id === id);
    if (!target) return;
    setPending(id);
    try {
      if (status === "connected") await disconnect(config);
      const result = await connect(config, { connector: target, chainId: chain.chainId });
      rememberPreference(id);
      setPreferred(id);
      setConnectedAddress(result.accounts[0]);
      setWalletConnected(true);
    } catch (error) {
      setProblem(walletErrorMessage(error));
    } finally {
      setPending(null);
    }
  }

  async function logOut() {
    setWalletConnected(false);
    setConnectedAddress(null);
    await disconnect(config).catch(() => undefined);
  }

  const connected = status === "connected" && address;
  return (
    <div ref={list}>
      {connected && (
        <div className="mb-4 rounded-lg border border-space-700 p-3">
          <p className="text-xs text-slate-300">Connected with {connector?.name ?? "your wallet"}</p>
          <div className="mt-1 flex items-center gap-2">
            <p className="flex-1 select-all break-all font-mono text-xs text-slate-100" data-testid="wallet-address">
              {address}
            </p>
            <CopyAddress value={address} />
          </div>
          <button type="button" className="btn-secondary mt-3 w-full" onClick={logOut}>
            Log out<span className="sr-only"> of the wallet</span>
          </button>
        </div>
      )}
      <ul className="flex flex-col gap-2">
        {options.map((option) => {
          const id = option.id;
          if (!option.enabled || !isBrowserWallet(id)) {
            return (
              <li key={id}>
                <button type="button" disabled className="btn-secondary w-full justify-between">
                  <span>{option.label}</span> <span className="text-xs font-normal text-slate-300">Coming soon</span>
                </button>
              </li>
            );
          }
          const active = connected && connector?.id === id;
          return (
            <li key={id}>
              <button
                type="button"
                className="btn-secondary w-full justify-between"
                disabled={pending !== null}
                aria-pressed={Boolean(active)}
                onClick={() => choose(id)}
              >
                <span>{pending === id ? `Connecting ${option.label}…` : option.label}</span>{" "}
                <span className="text-xs font-normal text-slate-300">{active ? "Connected" : preferred === id ? "Preferred" : ""}</span>
              </button>
            </li>
          );
        })}
      </ul>
      {problem && (
        <p role="alert" className="mt-3 text-sm text-red-300">
          {problem}
        </p>
      )}
    </div>
  );
}

/** The chain config comes from a resource route: the header is on every page, and no page loader sends it. */
export default function WalletSheetIsland(props: Omit<WalletSheetProps, "chain">) {
  return <WithChainConfig>{(chain) => <SheetBody {...props} chain={chain} />}</WithChainConfig>;
}

/**
 * Buy and open loot boxes (product §4 loot box flow): wallet mode first, then the transaction sequences of
 * lootbox-transactions.ts, every step shown, one action at a time. After a confirmed transaction the route's
 * loader runs again, so limits and boxes stay the server's. Browser wallets only: the route gives an account with a
 * managed wallet its server forms instead of this island.
 */
import { useEffect, useRef, useState } from "react";
import type { Address } from "viem";
import { connect, getConnection, getConnectorClient, switchChain } from "wagmi/actions";
import { useConfig, useConnection } from "wagmi";
import { type OpenedItem } from "~/components/item-list";
import { shortAddress } from "~core/address";
import type { PaymentCurrency } from "~core/boxes";
import { ALTERNATIVE_WALLET, DEFAULT_WALLET, walletMode, type BoundWallet } from "~/domain/wallet-mode";
import type { PublicChainConfig } from "~/services/chain.server";
import { injectedProvider, requestWalletInstall, setWalletConnected, storedPreference, walletProvider } from "~/islands/eip1193";
import { BuyForm, NewItems, OpenControls, StepStatus, type Step } from "./lootbox-panel-parts";
import { noExtensionMessage, WalletModeNotice } from "~/islands/wallet-mode-notice";
import { plural } from "~core/words";
import { buyBoxes, openBoxes, openCount, type Progress } from "./lootbox-transactions";
import { withWallet } from "~/islands/wagmi.client";
import { setConnectedAddress } from "~/islands/connected-address";
import { useStartOnMount } from "~/islands/use-start-on-mount";
import { chainErrorMessage, ShownError, type WalletClients } from "~/islands/chain-errors";

export interface LootboxPanelProps {
  chain: PublicChainConfig;
  typeBox: number;
  title: string;
  /** Price of one box per accepted currency (from the chain, read by the loader). */
  prices: Partial<Record<PaymentCurrency, bigint>>;
  /** Most boxes one purchase may ask for now (daily limit and supply included); 0 when none. */
  maxQuantity: number;
  /** Why maxQuantity is 0, when it is. */
  limitNote: string | null;
  /** The bound wallet's unopened boxes of this type. */
  boxIds: readonly bigint[];
  account: { loggedIn: boolean; bound: BoundWallet | null };
  /** Where "Bind now" and "Log in" come back to. */
  here: string;
  /** Called after each confirmed transaction: the route reloads its chain data (limits, boxes, balances). */
  onConfirmed: () => void;
  /** Loaded by the player's "Connect wallet" (app/features/lootbox/wallet-actions.tsx): connect as it mounts. */
  connectOnMount?: boolean;
}

/**
 * Tells the server a purchase was confirmed, for its analytics event; the server reads the transaction from the
 * chain and trusts nothing else. Best effort: a lost report never troubles the buyer.
 */
function reportPurchase(txHash: string) {
  void fetch("/resources/lootbox-purchase", { method: "POST", body: new URLSearchParams({ txHash }) }).catch(() => undefined);
}

/** The same for an opening: the server reads which boxes the transaction opened (their select_content events). */
function reportOpen(txHash: string) {
  void fetch("/resources/lootbox-open", { method: "POST", body: new URLSearchParams({ txHash }) }).catch(() => undefined);
}

const PURPOSE = "buy and open loot boxes";

function Panel(props: LootboxPanelProps) {
  const { chain, typeBox, title, prices, maxQuantity, limitNote, boxIds, account, here, onConfirmed, connectOnMount } = props;
  const config = useConfig();
  const connection = useConnection();
  const [hasExtension, setHasExtension] = useState(true);
  const [step, setStep] = useState<Step>({ status: "idle" });
  const [bought, setBought] = useState<bigint[]>([]);
  const [items, setItems] = useState<OpenedItem[]>([]);
  const inFlight = useRef(false);

  useEffect(() => setHasExtension(Boolean(injectedProvider())), []);

  useStartOnMount(connectOnMount, () => void connectWallet());

  const busy = step.status === "pending";
  const connected =
    connection.status === "connected" && connection.address ? { account: connection.address, chainId: connection.chainId } : null;
  // The account is requested before any check that needs it (product §4): until then only the extension rule can speak.
  const mode = !hasExtension
    ? walletMode({ ...account, wallet: null, expectedChainId: chain.chainId })
    : connected
      ? walletMode({ ...account, wallet: connected, expectedChainId: chain.chainId })
      : null;
  // Without an extension the buttons stay live: pressing one brings up product §8's install dialog.
  const blocked = mode !== null && !(mode.ok && mode.path === "blockchain") && !(!mode.ok && mode.message === "no wallet extension");
  const disabled = busy || blocked;

  /** Runs one action at a time; a second click while one is pending does nothing. */
  async function run(action: (say: Progress) => Promise<string | null>) {
    if (inFlight.current) return;
    inFlight.current = true;
    const say = (text: string) => setStep({ status: "pending", text });
    try {
      const done = await action(say);
      setStep(done ? { status: "confirmed", text: done } : { status: "idle" });
    } catch (error) {
      setStep({ status: "failed", text: chainErrorMessage(error) });
    } finally {
      inFlight.current = false;
    }
  }

  /** Product §4 before every on-chain action: request the account, then let the wallet mode decide. */
  async function requireWallet(say: Progress): Promise<Address> {
    if (!injectedProvider()) {
      setHasExtension(false);
      requestWalletInstall();
      throw new ShownError(noExtensionMessage(PURPOSE));
    }
    let current = getConnection(config);
    if (current.status !== "connected") {
      say("Connect your wallet: confirm in your wallet…");
      const preferred = storedPreference();
      const id = walletProvider(preferred) ? preferred : preferred === DEFAULT_WALLET ? ALTERNATIVE_WALLET : DEFAULT_WALLET;
      const connector = config.connectors.find((c) => c.id === id) ?? config.connectors[0];
      const result = await connect(config, { connector, chainId: chain.chainId });
      setWalletConnected(true);
      setConnectedAddress(result.accounts[0]);
      current = getConnection(config);
    }
    const decided = walletMode({
      ...account,
      wallet: current.address ? { account: current.address, chainId: current.chainId ?? 0 } : null,
      expectedChainId: chain.chainId,
    });
    if (!decided.ok || decided.path !== "blockchain")
      throw new ShownError(decided.ok ? "Loot boxes need a browser wallet." : decided.message);
    return decided.account as Address;
  }

  /** The node through the app's transport; transactions through the wallet, as the decided account. */
  async function clientsFor(account: Address): Promise<WalletClients> {
    return {
      publicClient: config.getClient({ chainId: chain.chainId }),
      walletClient: await getConnectorClient(config, { account, chainId: chain.chainId }),
    };
  }

  function buy(currency: PaymentCurrency, quantity: number) {
    void run(async (say) => {
      const clients = await clientsFor(await requireWallet(say));
      const { boxIds: ids, txHash } = await buyBoxes(clients, chain.contracts, { typeBox, currency, quantity }, say);
      reportPurchase(txHash);
      setBought(ids);
      onConfirmed();
      return `Bought ${plural(ids.length, title)}: ${ids.map((id) => `#${id}`).join(", ")}.`;
    });
  }

  function open(ids: readonly bigint[]) {
    if (ids.length === 0) return;
    void run(async (say) => {
      const clients = await clientsFor(await requireWallet(say));
      const opened = await openBoxes(clients, chain.contracts, ids, { say, onBatch: setItems, onOpened: reportOpen });
      setBought((previous) => previous.filter((id) => !ids.includes(id)));
      onConfirmed();
      return `Opened ${plural(ids.length, "box")}: you got ${plural(opened.length, "item", "items")}.`;
    });
  }

  function openSome(count: number) {
    void run(async (say) => {
      const clients = await clientsFor(await requireWallet(say));
      const opened = await openCount(clients, chain.contracts, typeBox, count, { say, onBatch: setItems, onOpened: reportOpen });
      onConfirmed();
      return `Opened ${plural(count, "box")}: you got ${plural(opened.length, "item", "items")}.`;
    });
  }

  async function switchNetwork() {
    await run(async () => {
      await switchChain(config, { chainId: chain.chainId });
      return "Network switched.";
    });
  }

  async function connectWallet() {
    await run(async (say) => {
      const address = await requireWallet(say);
      return `Connected ${shortAddress(address)}.`;
    });
  }

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        {connected ? (
          <p>
            Wallet <span className="font-mono">{shortAddress(connected.account)}</span>
          </p>
        ) : (
          hasExtension && (
            <button type="button" className="btn-secondary" onClick={connectWallet} disabled={busy}>
              Connect wallet
            </button>
          )
        )}
        <WalletModeNotice purpose={PURPOSE} wallet={{ mode, chainId: chain.chainId, account, switchNetwork }} here={here} busy={busy} />
      </div>
      <BuyForm title={title} prices={prices} maxQuantity={maxQuantity} limitNote={limitNote} busy={busy} disabled={disabled} onBuy={buy} />
      <OpenControls title={title} boxIds={boxIds} bought={bought} busy={busy} disabled={disabled} onOpen={open} onOpenCount={openSome} />
      <StepStatus step={step} />
      <NewItems items={items} />
    </div>
  );
}

export default withWallet(Panel);

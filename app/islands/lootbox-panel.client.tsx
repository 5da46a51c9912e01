/**
 * Buy and open loot boxes (SPEC §4 loot box flow): wallet mode first, then balance check, allowance, purchase,
 * box ids from the receipt, opener approval, batch open and the new items. Every step is shown; one action at
 * a time. After a confirmed transaction the route's loader runs again, so limits and boxes stay the server's.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { zeroAddress, type Address, type Hash } from "viem";
import { connect, getBalance, getConnection, readContract, simulateContract, switchChain, waitForTransactionReceipt, writeContract } from "wagmi/actions";
import { useConfig, useConnection } from "wagmi";
import { blindBoxAbi, blindBoxOpenerAbi, blindBoxSaleAbi, gameTokenAbi, sparkCardAbi, sparkErrorsAbi } from "../../contracts/generated/abi";
import { decodeItemData } from "../../contracts/itemData";
import { ItemList, type OpenedItem } from "~/components/lootbox/items";
import { checkPurchase, clampOpenCount, INVALID_ERC721, openBatches } from "~/components/lootbox/rules";
import { shortAddress } from "~core/address";
import type { PaymentCurrency } from "~core/boxes";
import { BATCH_OPEN_GAS_LIMIT } from "~core/constants";
import { formatPrice } from "~core/money";
import { loginHref } from "~/domain/safe-redirect";
import { ALTERNATIVE_WALLET, DEFAULT_WALLET, usesWebPath, walletMode, type BoundWallet, type WalletMode } from "~/domain/wallet-mode";
import type { PublicChainConfig } from "~/services/chain.server";
import { injectedProvider, requestWalletInstall, setWalletConnected, storedPreference, walletProvider } from "./eip1193";
import { boxIdsFromReceipt, chainErrorMessage, erc721Address, openedItemIds, ShownError } from "./lootbox-chain";
import { WalletProviders } from "./wagmi.client";
import { setConnectedAddress } from "./wallet-store";

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
}

type Step = { status: "idle" } | { status: "pending" | "confirmed" | "failed"; text: string };

const CURRENCY_ORDER: readonly PaymentCurrency[] = ["USDT", "QUARK", "BNB"];
const saleAbi = [...blindBoxSaleAbi, ...sparkErrorsAbi] as const;
const openerAbi = [...blindBoxOpenerAbi, ...sparkErrorsAbi] as const;

const plural = (count: number, one: string, many = `${one}es`) => `${count} ${count === 1 ? one : many}`;

/** What a failed wallet-mode check means for a loot box, in SPEC's words first. */
function ModeNotice({ mode, account, here, chainId, onSwitch, busy }: { mode: WalletMode; account: LootboxPanelProps["account"]; here: string; chainId: number; onSwitch: () => void; busy: boolean }) {
  if (mode.ok && mode.path === "web") {
    return (
      <p className="text-sm text-amber-200">
        Your account uses a managed wallet, which acts through the web. Loot boxes are bought and opened on-chain, so they need a browser
        wallet (MetaMask or OKX Wallet) bound to your account instead.
      </p>
    );
  }
  if (mode.ok) return null;
  switch (mode.message) {
    case "no wallet extension":
      return <p className="text-sm text-amber-200">No wallet extension: install MetaMask or OKX Wallet to buy and open loot boxes.</p>;
    case "Wrong chain id":
      return (
        <div className="flex flex-wrap items-center gap-3 text-sm text-amber-200">
          <p>Wrong chain id: switch your wallet to chain {chainId}.</p>
          <button type="button" className="btn-secondary" onClick={onSwitch} disabled={busy}>
            Switch network
          </button>
        </div>
      );
    case "Please bind wallet":
      return account.loggedIn ? (
        <p className="text-sm text-amber-200">
          Please bind wallet: loot boxes go to the wallet bound to your account. <a href={`/login?act=connect&redirect=${encodeURIComponent(here)}`}>Bind now</a>
        </p>
      ) : (
        <p className="text-sm text-amber-200">
          Please bind wallet: <a href={loginHref(here)}>log in</a> with an account that has this browser wallet bound to buy and open loot boxes.
        </p>
      );
    case "Wallet address is inconsistent":
      return (
        <p className="text-sm text-amber-200">
          Wallet address is inconsistent: your account is bound to {shortAddress(account.bound?.address ?? "")}. Switch to that account in your wallet.
        </p>
      );
  }
}

function Panel(props: LootboxPanelProps) {
  const { chain, typeBox, title, prices, maxQuantity, limitNote, boxIds, account, here, onConfirmed } = props;
  const config = useConfig();
  const connection = useConnection();
  const [hasExtension, setHasExtension] = useState(true);
  const currencies = CURRENCY_ORDER.filter((currency) => prices[currency] !== undefined);
  const [currency, setCurrency] = useState<PaymentCurrency | undefined>(currencies[0]);
  const [quantity, setQuantity] = useState(1);
  const [openCount, setOpenCount] = useState(1);
  const [step, setStep] = useState<Step>({ status: "idle" });
  const [bought, setBought] = useState<bigint[]>([]);
  const [items, setItems] = useState<OpenedItem[]>([]);
  const inFlight = useRef(false);

  useEffect(() => setHasExtension(Boolean(injectedProvider())), []);

  const busy = step.status === "pending";
  const managed = usesWebPath(account.loggedIn, account.bound);
  const connected = connection.status === "connected" && connection.address ? { account: connection.address, chainId: connection.chainId } : null;
  // The account is requested before any check that needs it (SPEC §4): until then only the first two rules can speak.
  const mode =
    managed || !hasExtension
      ? walletMode({ ...account, wallet: null, expectedChainId: chain.chainId })
      : connected
        ? walletMode({ ...account, wallet: connected, expectedChainId: chain.chainId })
        : null;
  // Without an extension the buttons stay live: pressing one brings up SPEC §8's install dialog.
  const blocked = mode !== null && !(mode.ok && mode.path === "blockchain") && !(!mode.ok && mode.message === "no wallet extension");
  const unitPrice = currency ? prices[currency] : undefined;
  // The loader's limits can shrink after a purchase: never ask for more than they allow now.
  const wanted = Math.min(quantity, Math.max(maxQuantity, 1));
  const openable = clampOpenCount(openCount, boxIds.length);

  /** Runs one action at a time; a second click while one is pending does nothing. */
  async function run(action: (say: (text: string) => void) => Promise<string | null>) {
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

  /** SPEC §4 before every on-chain action: request the account, then let the wallet mode decide. */
  async function requireWallet(say: (text: string) => void): Promise<Address> {
    if (managed) throw new ShownError("Loot boxes need a browser wallet bound to your account; a managed wallet cannot buy or open them.");
    if (!injectedProvider()) {
      setHasExtension(false);
      requestWalletInstall();
      throw new ShownError("No wallet extension: install MetaMask or OKX Wallet to buy and open loot boxes.");
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
    const decided = walletMode({ ...account, wallet: current.address ? { account: current.address, chainId: current.chainId ?? 0 } : null, expectedChainId: chain.chainId });
    if (!decided.ok || decided.path !== "blockchain") throw new ShownError(decided.ok ? "Loot boxes need a browser wallet." : decided.message);
    return decided.account as Address;
  }

  async function confirm(hash: Hash, what: string, say: (text: string) => void) {
    say(`${what}: waiting for confirmation…`);
    const receipt = await waitForTransactionReceipt(config, { hash, chainId: chain.chainId });
    if (receipt.status !== "success") throw new ShownError(`${what} failed on the chain.`);
    return receipt;
  }

  function buy(event: FormEvent) {
    event.preventDefault();
    if (!currency || unitPrice === undefined) return;
    void run(async (say) => {
      const buyer = await requireWallet(say);
      const box = erc721Address(chain.contracts.box);
      if (!box) throw new ShownError(INVALID_ERC721);
      const sale = chain.contracts.boxSale;
      const token = currency === "USDT" ? chain.contracts.usdt : currency === "QUARK" ? chain.contracts.quark : zeroAddress;
      say("Checking your balance…");
      const [balance, allowance] =
        currency === "BNB"
          ? [(await getBalance(config, { address: buyer, chainId: chain.chainId })).value, 0n]
          : await Promise.all([
              readContract(config, { address: token, abi: gameTokenAbi, functionName: "balanceOf", args: [buyer], chainId: chain.chainId }),
              readContract(config, { address: token, abi: gameTokenAbi, functionName: "allowance", args: [buyer, sale], chainId: chain.chainId }),
            ]);
      const check = checkPurchase({ currency, unitPrice, quantity: wanted, balance, allowance });
      if (!check.ok) throw new ShownError(check.message);
      if (check.needsApproval) {
        say(`Approving ${currency}: confirm in your wallet…`);
        const hash = await writeContract(config, { address: token, abi: gameTokenAbi, functionName: "approve", args: [sale, check.total], chainId: chain.chainId });
        await confirm(hash, `Approving ${currency}`, say);
      }
      say("Buying: confirm in your wallet…");
      const args = [BigInt(typeBox), BigInt(wanted)] as const;
      // Simulated first, so a refusal (daily limit, sold out…) comes back decoded rather than as a failed transaction.
      const hash =
        currency === "BNB"
          ? await writeContract(
              config,
              (await simulateContract(config, { account: buyer, address: sale, abi: saleAbi, functionName: "buyWithNativeToken", args, value: check.total, chainId: chain.chainId })).request,
            )
          : await writeContract(
              config,
              (await simulateContract(config, { account: buyer, address: sale, abi: saleAbi, functionName: "buyWithErc20", args: [...args, token], chainId: chain.chainId })).request,
            );
      const receipt = await confirm(hash, "Buying", say);
      const ids = boxIdsFromReceipt(receipt.logs, box);
      setBought(ids);
      onConfirmed();
      return `Bought ${plural(ids.length, title)}: ${ids.map((id) => `#${id}`).join(", ")}.`;
    });
  }

  function open(ids: readonly bigint[]) {
    if (ids.length === 0) return;
    void run(async (say) => {
      const owner = await requireWallet(say);
      const box = erc721Address(chain.contracts.box);
      if (!box) throw new ShownError(INVALID_ERC721);
      const opener = chain.contracts.opener;
      const approved = await readContract(config, { address: box, abi: blindBoxAbi, functionName: "isApprovedForAll", args: [owner, opener], chainId: chain.chainId });
      if (!approved) {
        say("Approving the opener: confirm in your wallet…");
        const hash = await writeContract(config, { address: box, abi: blindBoxAbi, functionName: "setApprovalForAll", args: [opener, true], chainId: chain.chainId });
        await confirm(hash, "Approving the opener", say);
      }
      const batches = openBatches(ids);
      const opened: OpenedItem[] = [];
      for (const [index, batch] of batches.entries()) {
        const what = `Opening ${plural(batch.length, "box")}${batches.length > 1 ? ` (batch ${index + 1} of ${batches.length})` : ""}`;
        say(`${what}: confirm in your wallet…`);
        const { request } = await simulateContract(config, {
          account: owner,
          address: opener,
          abi: openerAbi,
          functionName: "batchOpenWithIds",
          args: [[...batch]],
          gas: BATCH_OPEN_GAS_LIMIT,
          chainId: chain.chainId,
        });
        const receipt = await confirm(await writeContract(config, request), what, say);
        const minted = openedItemIds(receipt.logs, opener);
        say("Reading your new items…");
        const words = await Promise.all(
          minted.map((id) => readContract(config, { address: chain.contracts.card, abi: sparkCardAbi, functionName: "dataOf", args: [id], chainId: chain.chainId })),
        );
        opened.push(...minted.map((tokenId, i) => ({ tokenId, attributes: decodeItemData(words[i]) })));
        setItems([...opened]);
      }
      setBought((previous) => previous.filter((id) => !ids.includes(id)));
      onConfirmed();
      return `Opened ${plural(ids.length, "box")}: you got ${plural(opened.length, "item", "items")}.`;
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

  const disabled = busy || blocked;
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        {connected ? (
          <p>
            Wallet <span className="font-mono">{shortAddress(connected.account)}</span>
          </p>
        ) : (
          !managed &&
          hasExtension && (
            <button type="button" className="btn-secondary" onClick={connectWallet} disabled={busy}>
              Connect wallet
            </button>
          )
        )}
        {mode && <ModeNotice mode={mode} account={account} here={here} chainId={chain.chainId} onSwitch={switchNetwork} busy={busy} />}
      </div>

      <form onSubmit={buy} className="flex flex-col gap-3" aria-label={`Buy ${title}`}>
        {currencies.length === 0 ? (
          <p className="muted">This box is not on sale right now.</p>
        ) : (
          <fieldset className="flex flex-wrap gap-3">
            <legend className="mb-2 text-sm font-semibold text-slate-100">Pay with</legend>
            {currencies.map((c) => (
              <label key={c} className="flex items-center gap-2 rounded-md border border-space-700 px-3 py-2 text-sm">
                <input type="radio" name="currency" value={c} checked={currency === c} onChange={() => setCurrency(c)} disabled={busy} />
                {c} <span className="text-slate-300">({formatPrice(prices[c]!, c)} each)</span>
              </label>
            ))}
          </fieldset>
        )}
        <div className="flex flex-wrap items-end gap-3">
          <label className="flex flex-col gap-1 text-sm">
            Quantity
            <input
              type="number"
              inputMode="numeric"
              min={1}
              max={Math.max(maxQuantity, 1)}
              value={wanted}
              onChange={(event) => setQuantity(Math.min(Math.max(Math.trunc(Number(event.target.value)) || 1, 1), Math.max(maxQuantity, 1)))}
              className="w-24 rounded-md border border-space-600 bg-space-950 px-2 py-1"
              disabled={busy}
            />
          </label>
          {currency && unitPrice !== undefined && <p className="pb-1 text-sm">Total {formatPrice(unitPrice * BigInt(wanted), currency)}</p>}
          <button type="submit" className="btn-primary" disabled={disabled || maxQuantity === 0 || !currency}>
            {busy ? "Please wait…" : "Buy"}
          </button>
        </div>
        {maxQuantity === 0 && limitNote && <p className="text-sm font-semibold text-amber-300">{limitNote}</p>}
      </form>

      <div className="flex flex-col gap-3" role="group" aria-label={`Open ${title}es`}>
        <p className="text-sm">
          {boxIds.length === 0 ? `You have no unopened ${title}es.` : `You have ${plural(boxIds.length, `unopened ${title}`, `unopened ${title}es`)}.`}
        </p>
        {bought.length > 0 && (
          <button type="button" className="btn-primary self-start" onClick={() => open(bought)} disabled={disabled}>
            Open now
          </button>
        )}
        {boxIds.length > 0 && (
          <div className="flex flex-wrap items-end gap-3">
            <label className="flex flex-col gap-1 text-sm">
              Boxes to open
              <input
                type="number"
                inputMode="numeric"
                min={1}
                max={Math.min(10, boxIds.length)}
                value={openCount}
                onChange={(event) => setOpenCount(Number(event.target.value))}
                className="w-24 rounded-md border border-space-600 bg-space-950 px-2 py-1"
                disabled={busy}
              />
            </label>
            <button type="button" className="btn-secondary" onClick={() => open(boxIds.slice(0, openable))} disabled={disabled || openable === 0}>
              Open {openable}
            </button>
            <button type="button" className="btn-secondary" onClick={() => open(boxIds)} disabled={disabled}>
              Open all ({boxIds.length})
            </button>
          </div>
        )}
      </div>

      <div aria-live="polite" role="status" className="min-h-6 text-sm" data-testid="lootbox-status" data-state={step.status}>
        {step.status !== "idle" && step.status !== "failed" && (
          <p className={step.status === "confirmed" ? "text-emerald-300" : "text-slate-100"}>
            {step.status === "pending" ? "Pending: " : "Confirmed: "}
            {step.text}
          </p>
        )}
      </div>
      {step.status === "failed" && (
        <p role="alert" className="rounded-md border border-red-400 bg-red-950 px-3 py-2 text-sm">
          Failed: {step.text}
        </p>
      )}

      {items.length > 0 && (
        <section aria-labelledby="new-items-title">
          <h3 id="new-items-title" className="mb-2 font-semibold text-white">
            Your new items
          </h3>
          <ItemList items={items} />
        </section>
      )}
    </div>
  );
}

export default function LootboxPanel(props: LootboxPanelProps) {
  return (
    <WalletProviders chain={props.chain}>
      <Panel {...props} />
    </WalletProviders>
  );
}

/**
 * A browser wallet's trades of a chain-held item (issue 28): the item page's chain forms hand their submit here
 * (use-chain-wallet.tsx loads this module then, never before). Wallet mode first (product §4); the sequence in
 * chain-trade-transactions.ts, each transaction's state on screen, every failure worded (chainErrorMessage). A
 * listing is signed here and posted with the sell form (salt, expiry, counter, signature) for the market to store;
 * after a transaction the page's data is read again until the market shows what the chain did.
 */
import { useLocation, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { getAddress, isAddress, type Address } from "viem";
import type { ChainOrder } from "~core/api/market";
import { moveAmount, moveAmountMessage, stackText } from "~core/item-moves";
import { formatPrice, isCurrency, parseTokenAmount, parseUint256, type Currency } from "~core/money";
import { LISTING_STANDARD } from "~core/trading";
import { showToast } from "~/components/notices";
import type { BoundWallet } from "~/domain/wallet-mode";
import { usePollWhile } from "~/features/actions/use-poll";
import { walletMessages, WalletModeNotice } from "~/islands/wallet-mode-notice";
import { ShownError } from "~/islands/chain-errors";
import { ActionProgress } from "~/islands/transaction-parts";
import { useBrowserWallet } from "~/islands/use-browser-wallet";
import { useTransactionRun } from "~/islands/use-transaction-run";
import { WithChainConfig } from "~/islands/wagmi.client";
import { feePercent, type ChainTrade, type KeyedChainIntent } from "./chain-trade";
import {
  buyListing,
  cancelAllListings,
  cancelListing,
  saleProceeds,
  sendItem,
  signListing,
  transferItems,
  transferStack,
  type ChainTradeContracts,
  type ChainTradeStep,
  type ListingTerms,
} from "./chain-trade-transactions";

/** The chain forms' intents a browser wallet carries out itself (the buyer's confirmation posts as it is). */
export type ChainWalletIntent = KeyedChainIntent;

/** What the island takes of the loader's `chainTrade`. */
export type ChainWalletTrade = Pick<ChainTrade, "chainId" | "trading" | "collection" | "currencies" | "feeBps" | "chainOrder" | "stack">;

export interface ChainWalletProps {
  trade: ChainWalletTrade;
  wallet: BoundWallet;
  tokenId: string;
  /** Whether the page, as last read, shows the viewer holding the item: a transfer or send is done once it does not. */
  isOwner: boolean;
  /** The form submit that loaded the island, or a later one (a new id). */
  request: { id: number; intent: ChainWalletIntent; form: FormData };
  onBusy: (busy: boolean) => void;
}

/** What this island's wallet actions do, as its notices say it. */
const PURPOSE = "trade this item";

const MESSAGES = walletMessages(PURPOSE);

const STEP_TEXT: Record<Exclude<ChainTradeStep, "approve">, string> = {
  sign: "Sign the listing",
  buy: "Buy the item",
  cancel: "Cancel the listing",
  "cancel-all": "Cancel all your listings",
  transfer: "Transfer the item",
  send: "Send the item to the player",
};

const stepTitle = (intent: ChainWalletIntent) => (step: ChainTradeStep) =>
  step !== "approve" ? STEP_TEXT[step] : intent === "chain-buy" ? "Approve the payment" : "Let the market move your items";

/**
 * How much of the page's stack a form names (all of it when left empty), when within what the page says the wallet
 * holds (the server and the chain check it again); null when not. Undefined for an item that is no stack.
 */
function typedAmount(form: FormData, stack: ChainWalletTrade["stack"]): bigint | null | undefined {
  if (!stack) return undefined;
  const typed = String(form.get("amount") ?? "").trim();
  return moveAmount(typed ? (parseUint256(typed) ?? 0n) : undefined, BigInt(stack.held));
}

/** The form's amount of the page's stack, else the refusal the server would make; undefined for an item that is no stack. */
function stackAmount(form: FormData, stack: ChainWalletTrade["stack"]): bigint | undefined {
  const amount = typedAmount(form, stack);
  if (amount === null) throw new ShownError(moveAmountMessage(BigInt(stack!.held)));
  return amount;
}

/**
 * The sell form's terms in wei and token addresses; null fields are the form's to word (it checked them already). A
 * stack lists an amount of its SparkItems id, not the market's token id of the wallet's stack.
 */
function sellTerms(form: FormData, trade: ChainWalletTrade, tokenId: string) {
  const currency = String(form.get("currency") ?? "");
  const price = parseTokenAmount(String(form.get("price") ?? "").trim());
  const days = Number(form.get("days") ?? 0);
  const amount = typedAmount(form, trade.stack);
  if (!isCurrency(currency) || !price || price <= 0n || !Number.isInteger(days) || days < 1 || amount === null) return null;
  const terms: ListingTerms = { tokenId: BigInt(trade.stack?.id ?? tokenId), currency: trade.currencies[currency], price, days, amount };
  return { currency, terms };
}

/** The buyer's reviewed order (the confirmation posts it back whole), else the page's. */
function buyOrder(form: FormData, trade: ChainWalletTrade): ChainOrder | null {
  try {
    const posted = form.get("order");
    return posted ? (JSON.parse(String(posted)) as ChainOrder) : trade.chainOrder;
  } catch {
    return trade.chainOrder;
  }
}

function addressField(form: FormData, name: string): Address {
  const text = String(form.get(name) ?? "").trim();
  if (!isAddress(text, { strict: false })) throw new ShownError("Enter a valid wallet address (0x…, checksummed)");
  return getAddress(text);
}

/** The fee and what the seller receives, in full, before the wallet is asked to sign; what a stack's listing sells. */
function SellReview({ price, currency, feeBps, amount }: { price: bigint; currency: Currency; feeBps: number; amount?: string }) {
  const { fee, proceeds } = saleProceeds(price, feeBps);
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="chain-sell-review">
      {amount && (
        <>
          <dt className="muted">Amount</dt>
          <dd className="text-white">{amount}</dd>
        </>
      )}
      <dt className="muted">Price</dt>
      <dd className="text-white">{formatPrice(price, currency)}</dd>
      <dt className="muted">Market fee ({feePercent(feeBps)})</dt>
      <dd className="text-white">{formatPrice(fee, currency)}</dd>
      <dt className="muted">You receive</dt>
      <dd className="font-semibold text-white">{formatPrice(proceeds, currency)}</dd>
    </dl>
  );
}

/**
 * What the page must show before a sequence is done: the listing gone, or the item (a stack: that much of it) moved;
 * after a card's purchase also the buyer as its holder (the sale and the transfer reach the market by two streams).
 */
type Waiting = { intent: ChainWalletIntent; orderHash: string | null; held: string | null; done: string; untilHolder?: true };

function Trader({ trade, wallet: bound, tokenId, isOwner, request, onBusy }: ChainWalletProps) {
  const account = { loggedIn: true, bound };
  const wallet = useBrowserWallet({ chainId: trade.chainId, account, messages: MESSAGES });
  const submit = useSubmit();
  const location = useLocation();
  const { steps, outcome, setOutcome, busy, report, clientsOf, run } = useTransactionRun<ChainTradeStep>();
  const [waiting, setWaiting] = useState<Waiting | null>(null);
  const started = useRef<number | null>(null);
  const shown = useRef<HTMLDivElement>(null);
  const contracts: ChainTradeContracts = { chainId: trade.chainId, trading: trade.trading, collection: trade.collection };
  const sell = request.intent === "chain-sell" ? sellTerms(request.form, trade, tokenId) : null;

  // Done once the market shows what the chain did: the listing closed (the indexer), or the item gone from this wallet.
  const settled =
    waiting !== null &&
    (waiting.intent === "chain-transfer" || waiting.intent === "chain-send"
      ? !isOwner || (waiting.held !== null && trade.stack?.held !== waiting.held)
      : waiting.intent === "chain-cancel-all"
        ? trade.chainOrder === null
        : trade.chainOrder?.orderHash !== waiting.orderHash && (!waiting.untilHolder || isOwner));
  usePollWhile(waiting !== null && !settled);
  useEffect(() => {
    if (!waiting || !settled) return;
    setWaiting(null);
    setOutcome({ status: "confirmed", text: waiting.done });
    onBusy(false);
  }, [waiting, settled, onBusy, setOutcome]);

  /** Runs one form's sequence; returns what to wait for on the page, or null when there is nothing to wait for. */
  async function carryOut(intent: ChainWalletIntent, form: FormData): Promise<Waiting | null> {
    const clients = await clientsOf(wallet);
    switch (intent) {
      case "chain-sell": {
        // A stack's amount out of range is refused in its own words, not as a missing price.
        stackAmount(form, trade.stack);
        if (!sell) throw new ShownError("Enter a price, a currency and how long the listing lasts.");
        const { listing, signature } = await signListing(clients, contracts, sell.terms, report);
        const data = new FormData();
        for (const [name, value] of form) data.append(name, value);
        const proof = { salt: listing.salt, expiry: listing.expiry, counter: listing.counter, signature, confirmed: "1" };
        for (const [name, value] of Object.entries(proof)) data.set(name, String(value));
        data.set("intent", "chain-sell");
        submit(data, { method: "post" });
        setOutcome({ status: "confirmed", text: "Listing signed: the market is storing it." });
        return null;
      }
      case "chain-buy": {
        const order = buyOrder(form, trade);
        if (!order) throw new ShownError("This item is not on sale any more.");
        await buyListing(clients, contracts, order, report);
        if (order.standard !== LISTING_STANDARD.erc1155)
          return { intent, orderHash: order.orderHash, held: null, done: `Bought: item #${tokenId} is in your wallet.`, untilHolder: true };
        // What a stack's buyer gets is a stack of their own, on another page: this page's forms, and this island with
        // them, go once the listing closes, so the outcome is said where it stays.
        const done = `Bought: ${stackText(order.tokenId, order.amount)} are in your wallet.`;
        showToast("success", done);
        return { intent, orderHash: order.orderHash, held: null, done };
      }
      case "chain-cancel": {
        if (!trade.chainOrder) throw new ShownError("This item is not on sale any more.");
        await cancelListing(clients, contracts, trade.chainOrder, report);
        return { intent, orderHash: trade.chainOrder.orderHash, held: null, done: "Your listing is cancelled." };
      }
      case "chain-cancel-all":
        await cancelAllListings(clients, contracts, report);
        return { intent, orderHash: null, held: null, done: "All your listings are cancelled." };
      case "chain-transfer": {
        const to = addressField(form, "to");
        const amount = stackAmount(form, trade.stack);
        if (trade.stack && amount !== undefined) {
          await transferStack(clients, contracts, { to, id: BigInt(trade.stack.id), amount }, report);
          return { intent, orderHash: null, held: trade.stack.held, done: `${stackText(trade.stack.id, amount)} are in wallet ${to}.` };
        }
        await transferItems(clients, contracts, { to, tokenIds: [BigInt(tokenId)] }, report);
        return { intent, orderHash: null, held: null, done: `Item #${tokenId} is in wallet ${to}.` };
      }
      case "chain-send": {
        const player = addressField(form, "account");
        await sendItem(clients, contracts, { tokenId: BigInt(tokenId), account: player }, report);
        return { intent, orderHash: null, held: null, done: `Item #${tokenId} is on its way into the player's game inventory.` };
      }
    }
  }

  async function start({ id, intent, form }: ChainWalletProps["request"]) {
    if (started.current === id) return;
    started.current = id;
    setWaiting(null);
    onBusy(true);
    let waitingFor: Waiting | null = null;
    const ended = await run(async () => {
      waitingFor = await carryOut(intent, form);
      if (waitingFor) {
        setOutcome({ status: "running", text: "Waiting for the chain…" });
        setWaiting(waitingFor);
      }
      return null;
    });
    // Still busy while the page catches up with the chain, or while an earlier request runs (this one did not start).
    if (ended && !waitingFor) onBusy(false);
  }

  useEffect(() => {
    // The panel shows the island below all its forms: on a phone, the form clicked may be a screen away.
    shown.current?.scrollIntoView({ block: "nearest" });
    void start(request);
    // Once per submit: a new request carries a new id.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [request.id]);

  return (
    <div ref={shown} className="mt-3 flex flex-col gap-3" data-testid="chain-trade">
      <WalletModeNotice purpose={PURPOSE} wallet={wallet} here={location.pathname + location.search} busy={busy} />
      {sell && (
        <SellReview
          price={sell.terms.price}
          currency={sell.currency}
          feeBps={trade.feeBps}
          amount={sell.terms.amount === undefined ? undefined : stackText(sell.terms.tokenId, sell.terms.amount)}
        />
      )}
      <ActionProgress steps={steps} outcome={outcome} title={stepTitle(request.intent)} testId="chain-trade-status" />
      {waiting && (
        <p role="status" className="text-sm text-amber-200" data-testid="chain-wait">
          Waiting for the chain…
        </p>
      )}
    </div>
  );
}

/** The island: the chain's node from /resources/chain-config (the item page's loader does not send it), then the wallet. */
export default function ChainTradeIsland(props: ChainWalletProps) {
  return <WithChainConfig>{() => <Trader {...props} />}</WithChainConfig>;
}

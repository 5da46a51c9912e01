/**
 * A browser wallet's offers on chain-held items (issue 30, decision 0024), loaded by use-chain-offer.tsx on a form's
 * submit. Making one: the allowance raised when short, the TradeOffer signed, then posted with the offer form for
 * the market to store. Accepting or withdrawing one: a Trading transaction, then the page is read again until the
 * market (its indexer) shows it closed. Each step's state on screen; every failure worded.
 */
import { useLocation, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { BaseError, ContractFunctionRevertedError } from "viem";
import { isCurrency, parseTokenAmount } from "~core/money";
import { offerErrorMessage } from "~core/trading";
import type { BoundWallet } from "~/domain/wallet-mode";
import { usePollWhile } from "~/features/actions/use-poll";
import { cancelAllListings } from "~/features/market/chain-trade-transactions";
import { chainErrorMessage, ShownError } from "~/islands/chain-errors";
import { ActionProgress } from "~/islands/transaction-parts";
import { useBrowserWallet } from "~/islands/use-browser-wallet";
import { useTransactionRun } from "~/islands/use-transaction-run";
import { WithChainConfig } from "~/islands/wagmi.client";
import { walletMessages, WalletModeNotice } from "~/islands/wallet-mode-notice";
import { CHAIN_OFFER_BNB, chainOfferNoFunds } from "./chain-offer-words";
import { acceptChainOffer, signChainOffer, withdrawChainOffer, type ChainOfferStep } from "./chain-offer-transactions";
import type { ChainOfferChain } from "./offer-views";
import type { ChainOfferRequest } from "./use-chain-offer";

export interface ChainOfferIslandProps {
  chain: ChainOfferChain;
  wallet: BoundWallet;
  request: ChainOfferRequest;
  settled: boolean;
  onBusy: (busy: boolean) => void;
}

/** What this island's wallet actions do, as its notices say it. */
const PURPOSE = "make and accept offers on chain";

const MESSAGES = walletMessages(PURPOSE);

const STEP_TEXT: Record<Exclude<ChainOfferStep, "approve">, string> = {
  sign: "Sign the offer",
  accept: "Accept the offer",
  withdraw: "Withdraw the offer",
  "cancel-all": "Cancel all your chain offers and listings",
};

const stepTitle = (intent: ChainOfferRequest["intent"]) => (step: ChainOfferStep) =>
  step !== "approve"
    ? STEP_TEXT[step]
    : intent === "offer"
      ? "Let the market take the price when accepted"
      : "Let the market move your items";

/** Trading's refusals of an offer in the holder's or buyer's words, else the wallet's or node's. */
function failure(error: unknown): string {
  const revert = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : null;
  const name = revert instanceof ContractFunctionRevertedError ? revert.data?.errorName : undefined;
  return (name && offerErrorMessage(name)) || chainErrorMessage(error);
}

function Offerer({ chain, wallet: bound, request, settled, onBusy }: ChainOfferIslandProps) {
  const wallet = useBrowserWallet({ chainId: chain.chainId, account: { loggedIn: true, bound }, messages: MESSAGES });
  const submit = useSubmit();
  const location = useLocation();
  const { steps, outcome, setOutcome, busy, report, clientsOf, run } = useTransactionRun<ChainOfferStep>(failure);
  const [waiting, setWaiting] = useState<string | null>(null);
  const started = useRef<number | null>(null);
  const shown = useRef<HTMLDivElement>(null);

  usePollWhile(waiting !== null && !settled);
  useEffect(() => {
    if (waiting === null || !settled) return;
    setWaiting(null);
    setOutcome({ status: "confirmed", text: waiting });
    onBusy(false);
  }, [waiting, settled, onBusy, setOutcome]);

  /** Runs the request's sequence; what the page will show once done, or null when nothing is left to wait for. */
  async function carryOut(): Promise<string | null> {
    const clients = await clientsOf(wallet);
    const contracts = { chainId: chain.chainId, trading: chain.trading };
    switch (request.intent) {
      case "offer": {
        const currency = String(request.form.get("currency") ?? "");
        if (!isCurrency(currency)) throw new ShownError("Choose a currency.");
        if (currency === "BNB") throw new ShownError(CHAIN_OFFER_BNB);
        const { draft } = request;
        const { signature, offer } = await signChainOffer(
          clients,
          contracts,
          {
            collection: draft.collection,
            tokenId: BigInt(draft.tokenId),
            dataMask: BigInt(draft.dataMask),
            dataValue: BigInt(draft.dataValue),
            currency: chain.currencies[currency],
            price: parseTokenAmount(String(request.form.get("price") ?? "").trim()) ?? 0n,
            days: Number(request.form.get("days") ?? 0),
          },
          { committed: BigInt(draft.committed[currency] ?? "0"), noFunds: chainOfferNoFunds(currency) },
          report,
        );
        const data = new FormData();
        for (const [name, value] of request.form) data.append(name, value);
        const proof = { salt: offer.salt, expiry: offer.expiry, counter: offer.counter, signature };
        for (const [name, value] of Object.entries(proof)) data.set(name, String(value));
        submit(data, { method: "post", action: request.action });
        setOutcome({ status: "confirmed", text: "Offer signed: the market is storing it." });
        return null;
      }
      case "offer-accept":
        await acceptChainOffer(clients, contracts, request.offer, BigInt(request.tokenId), report);
        return "Offer accepted: the item is the buyer’s and the price is in your wallet.";
      case "offer-cancel":
        await withdrawChainOffer(clients, contracts, request.offer, report);
        return "Your offer is withdrawn.";
      case "offer-chain-cancel-all":
        await cancelAllListings(clients, contracts, report);
        return "All your chain offers and listings are cancelled.";
    }
  }

  async function start() {
    if (started.current === request.id) return;
    started.current = request.id;
    setWaiting(null);
    onBusy(true);
    let waitingFor: string | null = null;
    const ended = await run(async () => {
      waitingFor = await carryOut();
      if (waitingFor !== null) {
        setOutcome({ status: "running", text: "Waiting for the chain…" });
        setWaiting(waitingFor);
      }
      return null;
    });
    // Still busy while the page catches up with the chain, or while an earlier request runs (this one did not start).
    if (ended && waitingFor === null) onBusy(false);
  }

  useEffect(() => {
    // On a phone the form clicked may be a screen away from where the island shows.
    shown.current?.scrollIntoView({ block: "nearest" });
    void start();
    // Once per submit: a new request carries a new id.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [request.id]);

  return (
    <div ref={shown} className="mt-3 flex flex-col gap-3" data-testid="chain-offer">
      <WalletModeNotice purpose={PURPOSE} wallet={wallet} here={location.pathname + location.search} busy={busy} />
      <ActionProgress steps={steps} outcome={outcome} title={stepTitle(request.intent)} testId="chain-offer-status" />
    </div>
  );
}

/** The island: the chain's node from /resources/chain-config (the pages' loaders do not send it), then the wallet. */
export default function ChainOfferIsland(props: ChainOfferIslandProps) {
  return <WithChainConfig>{() => <Offerer {...props} />}</WithChainConfig>;
}

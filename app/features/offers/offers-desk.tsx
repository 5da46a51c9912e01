/**
 * The offers page of a wallet (routes/marketplace.offers): the offer form for the item or market view its URL names,
 * and the offers the wallet made, with cancel and cancel all. Loaded lazily, so a visitor's page ships none of it.
 */
import { Form, Link } from "@remix-run/react";
import type { FormEvent } from "react";
import { Section } from "~/components/page";
import { useHydrated } from "~/components/use-hydrated";
import { MarketProblem } from "~/features/market/filter-notices";
import { FailedAlert } from "~/features/market/failed-alert";
import type { PendingOffer } from "./chain-offer-rules";
import { type ChainOfferDraft, type OfferActionData, OFFERS_PATH, type OfferRowView } from "./offer-views";
import { OfferForm } from "./offer-form";
import { OffersTable } from "./offers-table";
import { useChainOffer } from "./use-chain-offer";
import { OfferActionForm, type OfferSigner } from "./offer-signing";

export interface OffersDeskData {
  here: string;
  target: {
    title: string;
    href: string;
    terms: { nftType: number; tokenId?: string; filter?: string };
    /** "item": a chain-held item, offered on from the wallet on chain; "choice": a card type's view, either way. */
    chain: "item" | "choice" | null;
    /** The idempotency key of a managed wallet's chain offer (its approval is an executor action). */
    key: string;
  } | null;
  signer: OfferSigner | null;
  /** What a browser wallet's chain offer names; null when the offer form makes a game offer. */
  chainDraft: ChainOfferDraft | null;
  /** The offer as typed before the executor's approval (the status page's way back carries it), to fill the form with. */
  pending: PendingOffer | null;
  rows: OfferRowView[];
  /** The wallet's open game offers (the ledger's cancel all). */
  openCount: number;
  /** The key of the trading counter's cancel all, while the wallet has an open chain offer; else null. */
  chainCancelAll: string | null;
  problem: string | null;
}

export default function OffersDesk({ data, answer }: { data: OffersDeskData; answer: OfferActionData | undefined }) {
  const offerAnswer = answer?.intent === "offer" ? answer : undefined;
  const otherFailure = answer && answer.intent !== "offer" ? answer.failed : null;
  const hydrated = useHydrated();
  // Done once the market shows no open chain offer of the wallet's (its indexer read CounterIncremented).
  const chainCancel = useChainOffer(data.signer, () => !data.rows.some((row) => row.key && row.cancel));
  const onChainCancelAll = (event: FormEvent<HTMLFormElement>) => {
    if (!chainCancel.start) return;
    event.preventDefault();
    chainCancel.start(event.currentTarget, { intent: "offer-chain-cancel-all" });
  };
  return (
    <>
      <MarketProblem message={data.problem} />
      {data.target ? (
        <section className="card flex flex-col gap-2">
          <p className="text-sm">
            <Link to={data.target.href}>
              {data.target.href.startsWith("/marketplace/market") ? "See these items on the market" : "Back to the item"}
            </Link>
          </p>
          <OfferForm
            title={data.target.title}
            action={data.here}
            back={data.here}
            lastResult={offerAnswer?.result ?? null}
            failed={offerAnswer?.failed ?? null}
            terms={data.target.terms}
            chain={data.target.chain}
            idempotencyKey={data.target.key}
            signer={data.signer}
            chainDraft={data.chainDraft}
            pending={data.pending}
          />
        </section>
      ) : (
        !data.problem && (
          <p className="muted">
            To make an offer, open an item, or a <Link to="/marketplace/market">market</Link> view of one item type, and choose “Make an
            offer”.
          </p>
        )
      )}
      <Section title="Your offers" id="your-offers">
        {otherFailure && <FailedAlert message={otherFailure} />}
        <OffersTable rows={data.rows} caption="Your offers" empty="You have made no offers yet." back={data.here} signer={data.signer} />
        {data.openCount > 0 && (
          <OfferActionForm
            intent="offer-cancel-all"
            fields={{ back: data.here, ...(data.signer ? { counter: data.signer.context.counter } : {}) }}
            signer={data.signer}
            className="mt-4"
          >
            {(busy) => (
              <button type="submit" className="btn-secondary" disabled={busy}>
                Cancel all offers
              </button>
            )}
          </OfferActionForm>
        )}
        {data.chainCancelAll && (!data.signer || chainCancel.start) && (
          // A managed wallet's executor increments the trading counter; a browser wallet sends it itself, with JavaScript.
          <Form
            method="post"
            action={OFFERS_PATH}
            aria-label="Cancel all chain offers and listings"
            className="mt-4 flex flex-col gap-1"
            onSubmit={onChainCancelAll}
          >
            <input type="hidden" name="intent" value="offer-chain-cancel-all" />
            <input type="hidden" name="back" value={data.here} />
            <input type="hidden" name="idempotencyKey" value={data.chainCancelAll} />
            <p className="text-sm text-slate-300">
              Your chain offers and chain listings share one counter on the trading contract: this cancels all of them.
            </p>
            <button type="submit" className="btn-secondary self-start" disabled={chainCancel.busy || (data.signer !== null && !hydrated)}>
              Cancel all chain offers and listings
            </button>
          </Form>
        )}
        {/* Outside the form, which goes once no chain offer is open: the outcome stays. */}
        {chainCancel.island}
      </Section>
    </>
  );
}

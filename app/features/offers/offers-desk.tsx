/**
 * The offers page of a wallet (routes/marketplace.offers): the offer form for the item or market view its URL names,
 * and the offers the wallet made, with cancel and cancel all. Loaded lazily, so a visitor's page ships none of it.
 */
import { Link } from "@remix-run/react";
import { Section } from "~/components/page";
import { MarketProblem } from "~/features/market/filter-notices";
import { FailedAlert } from "~/features/market/failed-alert";
import type { ChainOfferDraft, OfferRowView } from "./offer-views";
import type { OfferActionData } from "./offer-actions.server";
import { OfferForm } from "./offer-form";
import { OffersTable } from "./offers-table";
import { OfferActionForm, type OfferSigner } from "./offer-signing";

export interface OffersDeskData {
  here: string;
  target: { title: string; href: string; terms: { nftType: number; tokenId?: string; filter?: string } } | null;
  signer: OfferSigner | null;
  /** What a browser wallet's chain offer names; null when the offer form makes a game offer. */
  chainDraft: ChainOfferDraft | null;
  rows: OfferRowView[];
  openCount: number;
  problem: string | null;
}

export default function OffersDesk({ data, answer }: { data: OffersDeskData; answer: OfferActionData | undefined }) {
  const offerAnswer = answer?.intent === "offer" ? answer : undefined;
  const otherFailure = answer && answer.intent !== "offer" ? answer.failed : null;
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
            signer={data.signer}
            chainDraft={data.chainDraft}
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
      </Section>
    </>
  );
}

/** "Move to chain" / "Move into the game" on an item's page, for a managed wallet that holds it (posts to /bridge). */
import { Form, useNavigation } from "@remix-run/react";
import { Section } from "../page";
import { Hidden } from "../actions/form-parts";

export interface ItemMove {
  /** "pending": a claim to the chain waits for it; nothing to post. */
  intent: "claim-item" | "swap-item" | "pending";
  label: string;
  note: string;
  nftType: string;
  tokenId: string;
  back: string;
  idempotencyKey: string;
}

export function MoveItemForm({ move }: { move: ItemMove }) {
  const busy = useNavigation().state !== "idle";
  const { label, note, ...fields } = move;
  if (move.intent === "pending") {
    return (
      <Section title="Game and chain" id="move">
        <p className="text-sm" data-testid="move-pending">
          <strong className="text-white">{label}.</strong> {note}
        </p>
      </Section>
    );
  }
  return (
    <Section title="Game and chain" id="move">
      <Form method="post" action="/bridge" className="flex flex-wrap items-center gap-3">
        <Hidden fields={fields} />
        <button type="submit" className="btn-secondary" disabled={busy}>
          {label}
        </button>
        <p className="muted text-sm">{note}</p>
      </Form>
    </Section>
  );
}

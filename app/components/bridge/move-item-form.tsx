/** "Move to chain" / "Move into the game" on an item's page, for a managed wallet that holds it (posts to /bridge). */
import { Form, useNavigation } from "@remix-run/react";
import { Section } from "../page";
import { Hidden } from "../actions/form-parts";

export interface ItemMove {
  intent: "claim-item" | "swap-item";
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

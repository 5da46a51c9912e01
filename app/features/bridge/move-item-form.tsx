/**
 * "Move to chain" / "Move into the game" on an item's page, for the wallet that holds it: a form post to /bridge for
 * a managed wallet; for a browser wallet (`start` given) a button whose click starts its island (null while the
 * island loads). An item that cannot move gets the reason in one line instead (core/item-moves.ts).
 */
import { Form, useNavigation } from "@remix-run/react";
import { Hidden } from "~/features/actions/form-parts";
import { StackAmountField } from "./stack-amount-field";

export interface ItemMoveOffer {
  /** "pending": a claim to the chain waits for it; nothing to post. */
  intent: "claim-item" | "swap-item" | "pending";
  label: string;
  note: string;
  nftType: string;
  tokenId: string;
  back: string;
  idempotencyKey: string;
  /** A stack's size, decimal (a uint256): it moves whole or in part, so the form has an amount field, all of it to start with. */
  amount?: string;
}

/** Why the item cannot move where it is: said in place of a button that could only be refused. */
export interface ItemMoveRefused {
  intent: "refused";
  reason: string;
}

export type ItemMove = ItemMoveOffer | ItemMoveRefused;

export function MoveRefused({ move }: { move: ItemMoveRefused }) {
  return (
    <p className="muted text-sm" data-testid="move-refused">
      {move.reason}
    </p>
  );
}

export function MoveItemForm({ move, start }: { move: ItemMoveOffer; start?: (() => void) | null }) {
  const busy = useNavigation().state !== "idle";
  const { label, note, amount, ...fields } = move;
  if (move.intent === "pending") {
    return (
      <p className="text-sm" data-testid="move-pending">
        <strong className="text-white">{label}.</strong> {note}
      </p>
    );
  }
  const controls = (
    <>
      <button
        type={start === undefined ? "submit" : "button"}
        className="btn-secondary"
        onClick={start ?? undefined}
        disabled={busy || start === null}
      >
        {label}
      </button>
      <p className="muted text-sm">{note}</p>
    </>
  );
  if (start !== undefined) return <div className="flex flex-wrap items-center gap-3">{controls}</div>;
  return (
    <Form method="post" action="/bridge" className="flex flex-wrap items-end gap-3">
      <Hidden fields={fields} />
      {amount !== undefined && <StackAmountField id="move-amount" max={amount} />}
      {controls}
    </Form>
  );
}

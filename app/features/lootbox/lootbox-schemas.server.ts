/**
 * The managed wallet's loot box forms (product §4 web path), parsed by the box page's action only: the page
 * validates nothing in the browser, so neither zod nor these schemas reach its JavaScript. Each form carries
 * the idempotency key its render was given; the box ids of an opening come from the page the server rendered
 * and are checked again against the chain before anything is sent.
 */
import { z } from "zod";
import { findBox, type PaymentCurrency } from "~core/boxes";
import { MAX_BOXES_PER_OPEN_ACTION, OPEN_BATCH_MAX, OPEN_BATCH_MIN } from "~core/constants";
import { idempotencyKey, STALE_FORM_MESSAGE } from "~/features/actions/action-forms.server";

export const LOOTBOX_INTENTS = ["buy", "open", "open-all", "open-bought"] as const;
export type LootboxIntent = (typeof LOOTBOX_INTENTS)[number];

const count = (what: string) => {
  const message = `Choose how many ${what}, from ${OPEN_BATCH_MIN} to ${OPEN_BATCH_MAX}`;
  return z.coerce
    .number({ required_error: message, invalid_type_error: message })
    .int(message)
    .min(OPEN_BATCH_MIN, message)
    .max(OPEN_BATCH_MAX, message);
};

/** Buy: only a currency the box's catalogue entry takes (V3-Galaxy: QUARK only), 1 to 10 boxes. */
export function buySchema(typeBox: number) {
  const entry = findBox(typeBox);
  const accepted: readonly PaymentCurrency[] = entry?.currencies ?? [];
  const only = `The ${entry?.title ?? "loot box"} can be paid only in ${accepted.join(", ")}.`;
  return z.object({
    currency: z
      .string({ required_error: "Choose a currency" })
      .refine((value): value is PaymentCurrency => (accepted as readonly string[]).includes(value), only)
      .transform((value) => value as PaymentCurrency),
    quantity: count("boxes to buy"),
    idempotencyKey,
  });
}

/** "1,2,3" as the page rendered it: distinct box ids in decimal digits, at most one action's worth. */
const boxIds = z
  .string({ required_error: STALE_FORM_MESSAGE })
  .transform((text) => (text.trim() ? text.split(",").map((id) => id.trim()) : []))
  .refine(
    (ids) =>
      ids.length > 0 &&
      ids.length <= MAX_BOXES_PER_OPEN_ACTION &&
      ids.every((id) => /^[1-9]\d{0,76}$/.test(id)) &&
      new Set(ids).size === ids.length,
    STALE_FORM_MESSAGE,
  );

/** Open x N: `count` of the wallet's boxes of the page's type, named by the opener, not by the page (decision 0018). */
export const OpenSchema = z.object({ count: count("boxes to open"), idempotencyKey });

/** Open all: every box of this type the page listed. */
export const OpenAllSchema = z.object({ boxIds, idempotencyKey });

/** Open now, on a purchase's status page: the boxes that purchase minted, read from the execution itself. */
export const OpenBoughtSchema = z.object({
  executionId: z.string({ required_error: STALE_FORM_MESSAGE }).regex(/^[0-9a-f]{32}$/, STALE_FORM_MESSAGE),
  idempotencyKey,
});

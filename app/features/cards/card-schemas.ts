/** The card checkout's Zod schemas, built from its rules (card-rules.ts); imported by server modules only. */
import { z } from "zod";
import { cardBoxes } from "~core/card-payment";
import { CARD_RULES, ORDER_RULES } from "./card-rules";
import { ruledText } from "~/domain/rule-schemas";

const CARD_BOX_TYPES = new Set(cardBoxes().map((box) => box.typeBox));

export const OrderSchema = z.object({
  typeBox: z.coerce
    .number({ required_error: "Choose a loot box", invalid_type_error: "Choose a loot box" })
    .refine((typeBox) => CARD_BOX_TYPES.has(typeBox), "Choose a loot box"),
  quantity: ruledText(ORDER_RULES.quantity).transform(Number),
});

export const CardSchema = z.object({
  sessionId: z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/),
  cardNumber: ruledText(CARD_RULES.cardNumber),
  expiry: ruledText(CARD_RULES.expiry),
  cvc: ruledText(CARD_RULES.cvc),
});

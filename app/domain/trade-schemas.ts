/**
 * The schemas of the trade forms a person fills in (sell, transfer), shared by the actions (`parseWithZod`) and,
 * with JavaScript, the forms themselves. The action-only ones are in trade-action-schemas.server.ts, so the
 * page's JavaScript does not carry them. Every schema accepts the proof a browser wallet's island adds.
 */
import { isAddress } from "viem";
import { z } from "zod";
import { sameAddress } from "~core/address";
import { CURRENCIES, parseTokenAmount } from "~core/money";
import { DEFAULT_LISTING_DAYS, LISTING_DURATIONS } from "~core/orders";

export const SAME_ADDRESS_MESSAGE = "The address cannot be the same as the address of the sender";

export const proofFields = {
  nonce: z
    .string()
    .regex(/^\d{1,78}$/)
    .optional(),
  expiry: z
    .string()
    .regex(/^\d{1,13}$/)
    .optional(),
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]{2,1024}$/)
    .optional(),
  chainId: z
    .string()
    .regex(/^\d{1,10}$/)
    .optional(),
};

export const SellSchema = z.object({
  price: z
    .string({ required_error: "Enter a price" })
    .trim()
    .refine((text) => parseTokenAmount(text) !== undefined, "Enter a price as a decimal number, like 12.5")
    .refine((text) => (parseTokenAmount(text) ?? 0n) > 0n, "The price must be more than 0"),
  currency: z.enum(CURRENCIES, { errorMap: () => ({ message: "Choose a currency" }) }),
  days: z.coerce
    .number()
    .refine((days) => LISTING_DURATIONS.some((d) => d.days === days), "Choose how long the listing lasts")
    .default(DEFAULT_LISTING_DAYS),
  ...proofFields,
});

export function transferSchema(sender: string) {
  return z.object({
    to: z
      .string({ required_error: "Enter the recipient's wallet address" })
      .trim()
      .refine((to) => isAddress(to, { strict: true }), "Enter a valid wallet address (0x…, checksummed)")
      .refine((to) => !sameAddress(to, sender), SAME_ADDRESS_MESSAGE),
    ...proofFields,
  });
}

/** The trade actions' schemas for fields nobody types (proofs, the confirmed listing): the server alone parses them. */
import { z } from "zod";
import { proofFields } from "./trade-schemas";

// The detail page's action parses the owner's forms too; through this server module, the page itself ships neither
// Zod nor Conform's parser (only an owner's page loads them, with the forms).
export { parseWithZod } from "@conform-to/zod";
export { SellSchema, transferSchema } from "./trade-schemas";

export const ProofSchema = z.object(proofFields);

/** `listingId` is the listing the buyer confirmed (the backend refuses any other); `seller` is only signed, never trusted. */
export const BuySchema = z.object({
  listingId: z.string().regex(/^[1-9]\d{0,14}$/),
  priceWei: z.string().regex(/^\d{1,78}$/),
  currency: z.string().optional(),
  ...proofFields,
});

/** `counter` is the one a browser wallet signed; a managed wallet posts none (the backend uses the current one). */
export const CancelAllSchema = ProofSchema.extend({
  intent: z.literal("cancel-all"),
  counter: z
    .string()
    .regex(/^\d{1,78}$/)
    .optional(),
});

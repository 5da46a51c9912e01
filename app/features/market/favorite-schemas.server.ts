import { z } from "zod";

/** The favorite toggle's hidden fields; nothing here is typed by a person, so a failure is a broken or forged form. */
export const FavoriteSchema = z.object({
  tokenId: z.string().regex(/^\d{1,78}$/, "tokenId: expected a token id"),
  nftType: z.coerce.number().int().min(0).max(8),
  intent: z.enum(["add", "remove"]),
  redirectTo: z.string().max(2000).optional(),
  /** Sent by the JavaScript fetcher: answer with data, not a redirect. */
  mode: z.literal("fetch").optional(),
});

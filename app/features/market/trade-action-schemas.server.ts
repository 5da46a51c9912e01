/**
 * The trade actions' schemas: the owner's forms (sell, transfer), built from the rules the forms check in the
 * browser too (trade-rules.ts), and the fields nobody types (proofs, the confirmed listing). Every schema accepts
 * the proof a browser wallet's island adds. A server module, so no page ships Zod or Conform's parser.
 */
import { parseWithZod } from "@conform-to/zod";
import { isAddress } from "viem";
import { z } from "zod";
import { CURRENCIES } from "~core/money";
import { DEFAULT_LISTING_DAYS, LISTING_DURATIONS } from "~core/orders";
import { MAX_LISTING_DAYS } from "~core/trading";
import { ruledText } from "~/domain/rule-schemas";
import type { ListingProof, OrderProof } from "~/services/orders.server";
import { ADDRESS_MESSAGE, SELL_RULES, transferRules } from "./trade-rules";

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
  price: ruledText(SELL_RULES.price),
  currency: z.enum(CURRENCIES, { errorMap: () => ({ message: "Choose a currency" }) }),
  days: z.coerce
    .number()
    .refine((days) => LISTING_DURATIONS.some((d) => d.days === days), "Choose how long the listing lasts")
    .default(DEFAULT_LISTING_DAYS),
  ...proofFields,
});

export function transferSchema(sender: string) {
  return z.object({
    to: ruledText(transferRules(sender, (to) => isAddress(to, { strict: true })).to),
    ...proofFields,
  });
}

export const ProofSchema = z.object(proofFields);

/**
 * `listingId` is the listing the buyer confirmed (the backend refuses any other); `seller` and `currency` are only
 * signed, never trusted: the market rebuilds the order from its own listing, so any other signature fails.
 */
export const BuySchema = z.object({
  listingId: z.string().regex(/^[1-9]\d{0,14}$/),
  priceWei: z.string().regex(/^\d{1,78}$/),
  seller: z.string().optional(),
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

/** The proof fields a browser wallet's form posts (all text), as the order endpoints take them; none without a signature. */
export function proofFrom(value: { nonce?: string; expiry?: string; signature?: string; chainId?: string }): OrderProof | undefined {
  if (!value.signature) return undefined;
  return {
    nonce: value.nonce,
    expiry: value.expiry ? Number(value.expiry) : undefined,
    signature: value.signature as `0x${string}`,
    chainId: value.chainId ? Number(value.chainId) : undefined,
  };
}

/**
 * The Selling tab's "Cancel all listings" form (null when broken): a browser wallet posts the counter it signed
 * and its proof; a managed wallet posts neither. Read here, so the storage page ships no form schema.
 */
export function readCancelAll(formData: FormData): { counter: string | undefined; proof: OrderProof | undefined } | null {
  const submission = parseWithZod(formData, { schema: CancelAllSchema });
  return submission.status === "success" ? { counter: submission.value.counter, proof: proofFrom(submission.value) } : null;
}

export const CHAIN_DAYS_MESSAGE = `Enter how many days the listing lasts, a whole number from 1 to ${MAX_LISTING_DAYS}`;

const uint = z.string().regex(/^\d{1,78}$/);

/**
 * "Sell on chain": price, currency and days (at most MAX_LISTING_DAYS). `confirmed` is the review's second post.
 * A browser wallet's island adds the listing it signed (salt, expiry, counter, signature).
 */
export const ChainSellSchema = z.object({
  price: ruledText(SELL_RULES.price),
  currency: z.enum(CURRENCIES, { errorMap: () => ({ message: "Choose a currency" }) }),
  days: z.coerce
    .number({ invalid_type_error: CHAIN_DAYS_MESSAGE })
    .int(CHAIN_DAYS_MESSAGE)
    .min(1, CHAIN_DAYS_MESSAGE)
    .max(MAX_LISTING_DAYS, CHAIN_DAYS_MESSAGE),
  confirmed: z.literal("1").optional(),
  salt: uint.optional(),
  expiry: uint.optional(),
  counter: uint.optional(),
  signature: proofFields.signature,
});

/** The listing a browser wallet signed, when its island posted one whole. */
export function listingProofFrom(value: z.output<typeof ChainSellSchema>): ListingProof | undefined {
  const { salt, expiry, counter, signature } = value;
  return salt && expiry && counter && signature ? { salt, expiry, counter, signature: signature as `0x${string}` } : undefined;
}

/** "Transfer to a wallet": the recipient, never the owner's own wallet. */
export const chainTransferSchema = (sender: string) => transferSchema(sender).pick({ to: true });

/** "Send to a player": the player's bound wallet (any valid address; the executor checks it has a game profile). */
export const ChainSendSchema = z.object({
  account: z
    .string({ required_error: "Enter the player's wallet address" })
    .refine((to) => isAddress(to, { strict: true }), ADDRESS_MESSAGE),
});

const hex = (pattern: RegExp) => z.string().regex(pattern) as unknown as z.ZodType<`0x${string}`>;
const address = hex(/^0x[0-9a-fA-F]{40}$/);

/** The chain listing a buyer confirmed, posted back whole (core/api/market.ts ChainOrder); the executor checks it on chain. */
export const ChainOrderSchema = z
  .object({
    orderHash: hex(/^0x[0-9a-fA-F]{64}$/),
    seller: address,
    collection: address,
    standard: z.number().int().min(0).max(1),
    tokenId: uint,
    amount: uint,
    currency: address,
    price: uint,
    expiry: uint,
    salt: uint,
    counter: uint,
    signature: hex(/^0x[0-9a-fA-F]{2,1024}$/),
  })
  .strict();

/** A chain offer a holder accepts or its buyer cancels, posted back whole (core/api/market.ts ChainOffer). */
export const ChainOfferSchema = ChainOrderSchema.omit({ seller: true })
  .extend({ buyer: address, dataMask: uint, dataValue: uint })
  .strict();

/** The posted JSON as `schema` reads it, or null when it is not one. */
function postedJson<T extends z.ZodTypeAny>(schema: T, text: string): z.output<T> | null {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? (parsed.data as z.output<T>) : null;
  } catch {
    return null;
  }
}

/** The posted order's JSON, or null when it is not one. */
export const chainOrderFrom = (text: string) => postedJson(ChainOrderSchema, text);

/** The posted chain offer's JSON, or null when it is not one. */
export const chainOfferFrom = (text: string) => postedJson(ChainOfferSchema, text);

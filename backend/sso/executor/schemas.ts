/**
 * The executor's inputs, strict: an action is a name from ACTION_NAMES and its typed parameters. Unknown keys
 * are refused rather than ignored, so no address, calldata or value can ride along (the backend picks those).
 * JSON bodies only: the parameters nest.
 */
import { z } from "zod";
import { ACTION_NAMES, type ActionRequest } from "~core/api/actions";
import { BOX_CATALOGUE, findBox } from "~core/boxes";
import { MAX_BOXES_PER_OPEN_ACTION, OPEN_BATCH_MAX, OPEN_BATCH_MIN } from "~core/constants";
import { stackOfTokenId } from "~core/item-tokens";
import { parseUint256 } from "~core/money";
import { STAKE_POOLS } from "~core/pools";
import { SHIP_SLOT_COUNT } from "~core/spaceship";

const onlyKeys = (keys: string) => ({ message: `may hold only ${keys}; the backend picks addresses, calldata and value itself` });

export const idempotencyKey = z
  .string({ required_error: "is required: a random key per form, so a repeated post runs once" })
  .regex(/^[A-Za-z0-9_-]{8,100}$/, "must be 8-100 characters of A-Z, a-z, 0-9, _ and -");

const typeBox = z
  .number({ invalid_type_error: "must be a number" })
  .int("must be a whole number")
  .refine((value) => findBox(value) !== undefined, `must be a loot box type for sale (${BOX_CATALOGUE.map((b) => b.typeBox).join(", ")})`);

/** Boxes bought or opened in one call: 1 to 10. */
const boxCount = z
  .number({ invalid_type_error: "must be a number" })
  .int("must be a whole number")
  .min(OPEN_BATCH_MIN, `must be from ${OPEN_BATCH_MIN} to ${OPEN_BATCH_MAX}`)
  .max(OPEN_BATCH_MAX, `must be from ${OPEN_BATCH_MIN} to ${OPEN_BATCH_MAX}`);

const buyParams = z
  .object({
    typeBox,
    currency: z.enum(["USDT", "QUARK", "BNB"], { errorMap: () => ({ message: "must be USDT, QUARK or BNB" }) }),
    quantity: boxCount,
  })
  .strict(onlyKeys("typeBox, currency and quantity"));

const boxId = z
  .string()
  .refine((value) => /^[1-9]\d*$/.test(value) && parseUint256(value) !== undefined, "must be a box id in decimal digits");

const openIdsParams = z
  .object({
    boxIds: z
      .array(boxId, { invalid_type_error: "must be a list of box ids" })
      .min(1, "must name at least one box")
      .max(MAX_BOXES_PER_OPEN_ACTION, `may name at most ${MAX_BOXES_PER_OPEN_ACTION} boxes`)
      .refine((ids) => new Set(ids).size === ids.length, "must not name a box twice"),
  })
  .strict(onlyKeys("boxIds"));

const openCountParams = z
  .object({
    typeBox,
    count: boxCount,
  })
  .strict(onlyKeys("typeBox and count"));

/** Box ids, or a type and a count (with `count`): each shape keeps its own field messages, which a z.union would lose. */
const openParams = z.unknown().transform((value, ctx): z.infer<typeof openIdsParams> | z.infer<typeof openCountParams> => {
  const schema = value !== null && typeof value === "object" && "count" in value ? openCountParams : openIdsParams;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, message: issue.message });
  return z.NEVER;
});

const poolId = z
  .number({ invalid_type_error: "must be a number" })
  .int("must be a whole number")
  .refine((value) => STAKE_POOLS.some((pool) => pool.id === value), `must be a stake pool (${STAKE_POOLS.map((p) => p.id).join(", ")})`);

const depositParams = z
  .object({
    poolId,
    amount: z
      .string({ invalid_type_error: "must be a string of decimal digits" })
      .refine(
        (value) => /^[1-9]\d*$/.test(value) && parseUint256(value) !== undefined,
        "must be a FIRE amount in wei above zero, in decimal digits",
      ),
  })
  .strict(onlyKeys("poolId and amount"));

const withdrawParams = z.object({ poolId }).strict(onlyKeys("poolId"));

const hex = (what: string, pattern: RegExp) => z.string({ invalid_type_error: `must be ${what}` }).regex(pattern, `must be ${what}`);

/** A claim as the market backend answered it; what it says is checked against the chain by the planner. */
const claimParams = z
  .object({
    claim_content: hex("the claim's content, 0x and hex", /^0x[0-9a-fA-F]{2,2000}$/),
    v: hex("0x1b or 0x1c", /^0x1[bc]$/i),
    r: hex("32 bytes of hex", /^0x[0-9a-fA-F]{64}$/),
    s: hex("32 bytes of hex", /^0x[0-9a-fA-F]{64}$/),
  })
  .strict(onlyKeys("claim_content, v, r and s"));

const weiAmount = (what: string) =>
  z
    .string({ invalid_type_error: "must be a string of decimal digits" })
    .refine(
      (value) => /^[1-9]\d*$/.test(value) && parseUint256(value) !== undefined,
      `must be ${what} in wei above zero, in decimal digits`,
    );

const swapTokenParams = z
  .object({
    currency: z.enum(["FIRE", "QUARK"], { errorMap: () => ({ message: "must be FIRE or QUARK" }) }),
    amount: weiAmount("an amount"),
  })
  .strict(onlyKeys("currency and amount"));

const tokenId = z
  .string({ invalid_type_error: "must be a string of decimal digits" })
  .refine((value) => /^[1-9]\d*$/.test(value) && parseUint256(value) !== undefined, "must be a token id in decimal digits");

const swapNftParams = z.object({ tokenId }).strict(onlyKeys("tokenId"));

/** An amount of one SparkItems stack: bridge.swapItems, and each line of trade.transferItems. */
const stackAmount = z
  .object({
    id: z
      .string({ invalid_type_error: "must be a string of decimal digits" })
      .refine((value) => /^[1-9]\d{0,15}$/.test(value) && stackOfTokenId(BigInt(value)) !== null, "must be the id of a SparkItems stack"),
    amount: z
      .string({ invalid_type_error: "must be a string of decimal digits" })
      // A uint256 balance: past 2^53 too.
      .refine((value) => /^[1-9]\d*$/.test(value) && parseUint256(value) !== undefined, "must be whole units above zero"),
  })
  .strict(onlyKeys("id and amount"));
const swapItemsParams = stackAmount;

const shipParams = z.object({ tokenId }).strict(onlyKeys("tokenId"));

const slot = z
  .number({ invalid_type_error: "must be a number" })
  .int("must be a whole number")
  .min(0, `must be a slot from 0 to ${SHIP_SLOT_COUNT - 1}`)
  .max(SHIP_SLOT_COUNT - 1, `must be a slot from 0 to ${SHIP_SLOT_COUNT - 1}`);

const fitParams = z.object({ tokenId, slot, equipmentId: tokenId }).strict(onlyKeys("tokenId, slot and equipmentId"));

const unfitParams = z.object({ tokenId, slot }).strict(onlyKeys("tokenId and slot"));

const wholeUnits = z
  .string({ invalid_type_error: "must be a string of decimal digits" })
  .refine((value) => /^(0|[1-9]\d*)$/.test(value) && parseUint256(value) !== undefined, "must be whole units in decimal digits");

const sendMaterialsParams = z
  .object({
    amounts: z
      .tuple([wholeUnits, wholeUnits, wholeUnits], { invalid_type_error: "must be [DarkIron, Silver, Gold]" })
      .refine((amounts) => amounts.some((amount) => amount !== "0"), "must send at least one material"),
  })
  .strict(onlyKeys("amounts"));

const hex0x = (what: string, pattern: RegExp) => hex(what, pattern).transform((value) => value as `0x${string}`);
const address = hex0x("an address, 0x and 40 hex digits", /^0x[0-9a-fA-F]{40}$/);
const decimal = (what: string) =>
  z
    .string({ invalid_type_error: "must be a string of decimal digits" })
    .refine((value) => /^\d+$/.test(value) && parseUint256(value) !== undefined, `must be ${what} in decimal digits`);

/** The fields a Trading listing and a Trading offer share, as the market answers them. */
const orderFields = {
  orderHash: hex0x("32 bytes of hex", /^0x[0-9a-fA-F]{64}$/),
  collection: address,
  standard: z.number({ invalid_type_error: "must be 0 or 1" }).int().min(0, "must be 0 or 1").max(1, "must be 0 or 1"),
  tokenId: decimal("a token id"),
  amount: decimal("an amount"),
  currency: address,
  price: decimal("a price in wei"),
  expiry: decimal("unix seconds"),
  salt: decimal("a salt"),
  counter: decimal("a counter"),
};

/** A stored chain listing as the market's item detail answers it (listing.chainOrder); the planner checks it on chain. */
const chainOrder = z
  .object({ ...orderFields, seller: address, signature: hex0x("the seller's signature, 0x and hex", /^0x[0-9a-fA-F]{2,1024}$/) })
  .strict(onlyKeys("the fields of the item detail's listing.chainOrder"));

/** A stored chain offer as the market answers it; the planner checks it on chain. */
const chainOffer = z
  .object({
    ...orderFields,
    buyer: address,
    dataMask: decimal("a data mask"),
    dataValue: decimal("a data value"),
    signature: hex0x("the buyer's signature, 0x and hex", /^0x[0-9a-fA-F]{2,1024}$/),
  })
  .strict(onlyKeys("the fields of a chain offer"));

const tradeOrderParams = z.object({ order: chainOrder }).strict(onlyKeys("order"));
const offerApproveParams = z.object({ currency: address, amount: weiAmount("an amount") }).strict(onlyKeys("currency and amount"));
const acceptOfferParams = z.object({ offer: chainOffer, tokenId: decimal("a token id") }).strict(onlyKeys("offer and tokenId"));
const cancelOfferParams = z.object({ offer: chainOffer }).strict(onlyKeys("offer"));
const noParams = z.object({}).strict(onlyKeys("nothing"));
/** What one transfer gives: 1-10 entries, no two naming the same `noun` (`key` says which one an entry names). */
const transferList = <T extends z.ZodTypeAny>(entry: T, noun: string, list: string, key: (value: z.output<T>) => string) =>
  z
    .array(entry, { invalid_type_error: `must be a list of ${list}` })
    .min(1, `must name at least one ${noun}`)
    .max(10, `may name at most 10 ${noun}s`)
    .refine((values) => new Set(values.map(key)).size === values.length, `must not name a ${noun} twice`);
const transferNftParams = z
  .object({
    to: address,
    tokenIds: transferList(tokenId, "card", "token ids", (id) => id),
    collection: z.enum(["card", "box"], { errorMap: () => ({ message: "must be card or box" }) }).optional(),
  })
  .strict(onlyKeys("to, tokenIds and collection"));
const transferItemsParams = z
  .object({ to: address, items: transferList(stackAmount, "stack", "{ id, amount }", (item) => item.id) })
  .strict(onlyKeys("to and items"));
const sendNftParams = z.object({ tokenId, account: address }).strict(onlyKeys("tokenId and account"));

const request = <A extends string, P extends z.ZodTypeAny>(action: A, params: P) =>
  z.object({ action: z.literal(action), params, idempotencyKey }).strict(onlyKeys("action, params and idempotencyKey"));

export const actionRequestInput: z.ZodType<ActionRequest, z.ZodTypeDef, unknown> = z.discriminatedUnion(
  "action",
  [
    request("lootbox.buy", buyParams),
    request("lootbox.open", openParams),
    request("staking.deposit", depositParams),
    request("staking.withdraw", withdrawParams),
    request("bridge.claim", claimParams),
    request("bridge.swapToken", swapTokenParams),
    request("bridge.swapNft", swapNftParams),
    request("bridge.swapItems", swapItemsParams),
    request("spaceship.explore", shipParams),
    request("spaceship.recall", shipParams),
    request("spaceship.repair", shipParams),
    request("spaceship.upgrade", shipParams),
    request("spaceship.openSlot", shipParams),
    request("spaceship.fit", fitParams),
    request("spaceship.unfit", unfitParams),
    request("spaceship.sendMaterials", sendMaterialsParams),
    request("trade.approve", noParams),
    request("trade.buy", tradeOrderParams),
    request("trade.cancel", tradeOrderParams),
    request("trade.cancelAll", noParams),
    request("trade.transferNft", transferNftParams),
    request("trade.transferItems", transferItemsParams),
    request("trade.sendNft", sendNftParams),
    request("trade.offerApprove", offerApproveParams),
    request("trade.acceptOffer", acceptOfferParams),
    request("trade.cancelOffer", cancelOfferParams),
    request("reward.claim", claimParams),
  ],
  {
    errorMap: (issue, ctx) => ({
      message: issue.code === "invalid_union_discriminator" ? `must be one of ${ACTION_NAMES.join(", ")}` : ctx.defaultError,
    }),
  },
);

export const executionIdParam = z.object({ id: z.string().regex(/^[0-9a-f]{32}$/) });
export const executionKeyQuery = z.object({ idempotencyKey });

/**
 * Between the game and the chain (issue 14), for the pages' loaders and actions:
 * - the market API's claims (takeOutTokenSign, takeOutSign, the account's claims);
 * - the wallet's tokens on chain;
 * - the managed wallet's moves (product §4 web path): a claim is signed by the market backend, then submitted by
 *   the SSO executor (bridge.claim); a swap is the executor's bridge.swapToken, bridge.swapNft or, for an amount of a
 *   chain stack, bridge.swapItems. A material stack moves whole or in part (an `amount` field). Every accepted
 *   post redirects (303) to the action's status page; a refusal keeps the backend's words and status.
 */
import { gameTokenAbi, sparkItemsAbi } from "../../../contracts/generated/abi";
import type { ClaimRecord, SignedClaimWire, TokenRef } from "~core/api/market";
import { formatChainTime, formatIsoTime } from "~core/chain-text";
import { CLAIM_KIND, decodeClaimContent } from "~core/claim";
import { type Currency, formatPrice, parseTokenAmount, parseUint256 } from "~core/money";
import { sameAddress } from "~core/address";
import { chainStackOf, intoGameRefusal, moveAmount, moveAmountMessage, movesAsStack, stackText, toChainRefusal } from "~core/item-moves";
import { NFT_TYPE } from "~core/nft";
import type { ActionRequest } from "~core/api/actions";
import { STALE_FORM_MESSAGE } from "~/features/actions/action-forms.server";
import type { StorageMove } from "~/features/market/market-views";
import { isSale } from "~/features/market/listing";
import type { ItemMove } from "./move-item-form";
import { newIdempotencyKey } from "~/features/actions/actions.server";
import { CHAIN_DOWN_MESSAGE, isRefusal, managedAction, refusal, typed } from "~/features/actions/managed-action.server";
import type { ManagedPost, Refusal } from "~/features/actions/managed-action.server";
import { registerActionFeature } from "~/services/action-features.server";
import { chain, readBalances } from "~/services/chain.server";
import { getEnv } from "~/services/env.server";
import { BackendError } from "~/services/http-client.server";
import { BRIDGE_CURRENCIES, type BridgeCurrency } from "~/services/bridge-api.server";

export { BRIDGE_CURRENCIES, type BridgeCurrency };

/** The wallet's four tokens on chain, beside their game balances (FIRE and QUARK move between the two). */
export async function readBridgeWallet(wallet: `0x${string}`): Promise<Record<Currency, bigint>> {
  const { client, deployment } = chain();
  const read = (address: `0x${string}`) => client.readContract({ address, abi: gameTokenAbi, functionName: "balanceOf", args: [wallet] });
  const [FIRE, { QUARK, USDT, BNB }] = await Promise.all([read(deployment.contracts.fire), readBalances(wallet)]);
  return { FIRE, QUARK, USDT, BNB };
}

/** A stack claim's amount and material ("40 Silver"), read from the content the game signed. */
function stackClaimText(claim: ClaimRecord): string {
  try {
    return stackText(decodeClaimContent(claim.claim_content as `0x${string}`).data, claim.idOrAmount);
  } catch {
    return `${claim.idOrAmount} of a stack`;
  }
}

/** A claim in words, for the history on /game. */
export function claimRow(claim: ClaimRecord) {
  const what =
    claim.kind === 0
      ? formatPrice(claim.idOrAmount, claim.currency ?? "")
      : claim.kind === CLAIM_KIND.item1155
        ? stackClaimText(claim)
        : `Item #${claim.idOrAmount}`;
  const status =
    claim.statusName === "pending"
      ? `Pending: submit it before ${formatChainTime(BigInt(claim.deadline))}, or it returns to the game`
      : claim.statusName === "claimed"
        ? "Claimed: on chain"
        : "Expired: returned to the game";
  return {
    txId: claim.txId,
    what,
    status,
    statusName: claim.statusName,
    /** Still payable on chain: its wallet may submit it (again) before the deadline. */
    submittable: claim.statusName === "pending" && claim.deadline * 1000 > Date.now(),
    createdAt: formatIsoTime(claim.createdAt),
  };
}

export const BRIDGE_INTENTS = ["claim-token", "swap-token", "claim-item", "swap-item", "submit-claim"] as const;
export type BridgeIntent = (typeof BRIDGE_INTENTS)[number];

export const BRIDGE_MANAGED_ONLY =
  "These forms are for accounts with a managed wallet. With a browser wallet, move assets with the wallet tools (they need JavaScript).";
const AMOUNT_MESSAGE = "Enter an amount as a number above zero, like 50 or 12.5.";

function tokenInput(formData: FormData): { currency: BridgeCurrency; amount: bigint } | Refusal {
  const currency = BRIDGE_CURRENCIES.find((name) => name === formData.get("currency"));
  if (!currency) return refusal("Choose FIRE or QUARK.", { field: "currency" });
  const amount = parseTokenAmount(String(formData.get("amount") ?? "").trim());
  if (!amount) return refusal(AMOUNT_MESSAGE, { field: "amount" });
  return { currency, amount };
}

/** A stack's amount as typed: whole units, or nothing (all of it). */
export const STACK_AMOUNT_MESSAGE = "Enter the amount as a whole number, like 40.";

/** The form's `amount` of a stack: whole units, undefined when left empty (all of it), or its refusal. */
export function typedStackAmount(formData: FormData): bigint | undefined | Refusal {
  const typed = String(formData.get("amount") ?? "").trim();
  if (!typed) return undefined;
  const amount = parseUint256(typed);
  return amount !== undefined && amount >= 1n ? amount : refusal(STACK_AMOUNT_MESSAGE, { field: "amount" });
}

function itemInput(formData: FormData): (TokenRef & { amount?: bigint }) | Refusal {
  const nftType = Number(formData.get("nftType"));
  const tokenId = String(formData.get("tokenId") ?? "");
  if (!Number.isInteger(nftType) || nftType < 0 || nftType > NFT_TYPE.material || !/^[1-9]\d{0,76}$/.test(tokenId))
    return refusal(STALE_FORM_MESSAGE);
  const amount = typedStackAmount(formData);
  if (typeof amount === "object") return amount;
  return amount === undefined ? { nftType, tokenId } : { nftType, tokenId, amount };
}

/** What the wallet holds on chain of a SparkItems stack, in whole units. */
async function chainStackHeld(wallet: `0x${string}`, id: bigint): Promise<bigint> {
  const { client, deployment } = chain();
  return await client.readContract({
    address: deployment.contracts.items,
    abi: sparkItemsAbi,
    functionName: "balanceOf",
    args: [wallet, id],
  });
}

/**
 * How much of the wallet's chain stack a form moves: `requested` (all of it when undefined) checked against what the
 * wallet holds now, or why not (the amount's refusal next to its field).
 */
export async function chainStackAmount(
  stack: { id: bigint; holder: string },
  wallet: `0x${string}`,
  requested: bigint | undefined,
): Promise<bigint | Refusal> {
  if (!sameAddress(stack.holder, wallet)) return refusal("This stack is not in your wallet.");
  const held = await chainStackHeld(wallet, stack.id).catch(() => null);
  if (held === null) return refusal(CHAIN_DOWN_MESSAGE, { status: 503 });
  if (held === 0n) return refusal(`Your wallet holds no ${stackText(stack.id, "").trim()} any more.`);
  const amount = moveAmount(requested, held);
  return amount === null ? refusal(moveAmountMessage(held), { field: "amount" }) : amount;
}

/** The executor's swap of an amount of the wallet's chain stack, or why not (the amount next to its field). */
async function swapStack(
  stack: { id: bigint; holder: string },
  wallet: `0x${string}`,
  requested: bigint | undefined,
  idempotencyKey: string,
): Promise<ActionRequest | Refusal> {
  const amount = await chainStackAmount(stack, wallet, requested);
  if (typeof amount !== "bigint") return amount;
  return { action: "bridge.swapItems", params: { id: stack.id.toString(), amount: amount.toString() }, idempotencyKey };
}

/** The market's claim of an item (of `amount` of a stack); its refusal of the amount goes next to the field. */
async function claimItem(
  bridge: ManagedPost<BridgeIntent>["apis"]["bridge"],
  ref: TokenRef & { amount?: bigint },
  idempotencyKey: string,
): Promise<SignedClaimWire | Refusal> {
  try {
    return await bridge.takeOutItem(ref, idempotencyKey, ref.amount);
  } catch (error) {
    if (error instanceof BackendError && error.status === 400 && error.message.startsWith("amount: "))
      return refusal(error.message.slice("amount: ".length), { field: "amount" });
    throw error;
  }
}

/** A claim's id as a form posts it (the market's txId), or null. */
export function claimIdInput(formData: FormData): string | null {
  const txId = String(formData.get("txId") ?? "");
  return /^[1-9]\d{0,14}$/.test(txId) ? txId : null;
}

/** The executor's claim request for a claim the market backend signed. */
const claimRequest = (claim: SignedClaimWire, idempotencyKey: string) =>
  ({
    action: "bridge.claim" as const,
    params: { claim_content: claim.claim_content, v: claim.v, r: claim.r, s: claim.s },
    idempotencyKey,
  }) as const;

/**
 * Before the game signs a claim (and takes its asset out of the game until the claim is paid or expires), the
 * wallet must be able to pay the gas of submitting it; a wallet that cannot is told so and nothing is taken. With the
 * site's gas tank (decision 0038) BNB is not needed: a claim of tokens pays its network fee from what it brings, and
 * any other claim from a FIRE, QUARK or USDT balance (the fee is reviewed before anything is sent).
 */
export async function gasRefusal(wallet: `0x${string}`, claimOf: "tokens" | "item" = "item"): Promise<Refusal | null> {
  const sponsored = getEnv().gasTank !== null;
  if (sponsored && claimOf === "tokens") return null;
  const balances = await readBridgeWallet(wallet).catch(() => null);
  if (balances === null) return refusal(CHAIN_DOWN_MESSAGE, { status: 503 });
  if (balances.BNB > 0n) return null;
  if (!sponsored) return refusal(`Your wallet holds no BNB to pay the gas of the claim. Send BNB to ${wallet} first.`);
  if (balances.FIRE > 0n || balances.QUARK > 0n || balances.USDT > 0n) return null;
  return refusal(
    `Your wallet holds no BNB, FIRE, QUARK or USDT to pay the network fee of the claim. Send BNB or one of these tokens to ${wallet} first.`,
  );
}

/** The executor's request for a bridge form, or why not. A claim is signed by the market backend first. */
async function plan({
  intent,
  form,
  wallet,
  idempotencyKey,
  apis: { bridge },
}: ManagedPost<BridgeIntent>): Promise<ActionRequest | Refusal> {
  if (intent === "submit-claim") {
    const txId = claimIdInput(form);
    if (!txId) return refusal(STALE_FORM_MESSAGE);
    return (await gasRefusal(wallet)) ?? claimRequest(await bridge.claimSign(txId), idempotencyKey);
  }
  if (intent === "claim-token" || intent === "swap-token") {
    const input = tokenInput(form);
    if (isRefusal(input)) return input;
    if (intent === "swap-token") {
      return { action: "bridge.swapToken", params: { currency: input.currency, amount: input.amount.toString() }, idempotencyKey };
    }
    return (
      (await gasRefusal(wallet, "tokens")) ??
      claimRequest(await bridge.takeOutToken(input.amount, input.currency, idempotencyKey), idempotencyKey)
    );
  }
  const ref = itemInput(form);
  if (isRefusal(ref)) return ref;
  if (intent === "swap-item") {
    const stack = ref.nftType === NFT_TYPE.material ? chainStackOf(ref.tokenId) : null;
    if (stack) return swapStack(stack, wallet, ref.amount, idempotencyKey);
    const stays = intoGameRefusal(ref);
    return stays ? refusal(stays) : { action: "bridge.swapNft", params: { tokenId: ref.tokenId }, idempotencyKey };
  }
  const gas = await gasRefusal(wallet);
  if (gas) return gas;
  const claim = await claimItem(bridge, ref, idempotencyKey);
  return isRefusal(claim) ? claim : claimRequest(claim, idempotencyKey);
}

/**
 * A bridge form of a managed wallet, posted to `back`'s page (or /bridge): each accepted move goes to its status
 * page. Refusals come back with a 4xx, the field ("amount", "currency") or the whole form (""), and the page the form
 * was on (values.back, for /bridge's way back).
 */
export function bridgeAction(request: Request, backOf: string | ((form: FormData) => string)) {
  const back = (form: FormData) => (typeof backOf === "string" ? backOf : backOf(form));
  return managedAction(request, {
    intents: BRIDGE_INTENTS,
    managedOnly: BRIDGE_MANAGED_ONLY,
    back,
    // An item form refused on its amount is shown again on /bridge, the message next to the field.
    echo: (_intent, form) => ({
      ...typed(form, ["currency", "amount", "nftType", "tokenId"], 80),
      back: back(form),
      // Nothing was sent: the form shown again may post once more, under a key of its own.
      ...(form.has("tokenId") ? { idempotencyKey: newIdempotencyKey() } : {}),
    }),
    plan,
  });
}

/**
 * What an item's page offers the wallet that holds it: to move it to the chain, or back into the game, or why it
 * cannot (core/item-moves.ts, the rule the market refuses by). While a claim is pending (`leaving`) it says so
 * instead, so the page keeps its "Game and chain" section, and a browser wallet's island its outcome, until the
 * chain records the claim or the claim expires.
 */
export function itemMove(
  item: { nftType: number; tokenId: string; amount: string; location: string; isOwner: boolean; onSale: boolean },
  back: string,
): ItemMove | null {
  if (!item.isOwner) return null;
  const common = { nftType: String(item.nftType), tokenId: item.tokenId, back, idempotencyKey: newIdempotencyKey() };
  switch (item.location) {
    case "game": {
      const reason = toChainRefusal(item);
      if (reason) return { intent: "refused", reason };
      if (movesAsStack(item)) {
        return {
          ...common,
          intent: "claim-item",
          label: "Move to chain",
          amount: item.amount,
          note: item.onSale
            ? "Its sale ends. What you move leaves the market while it is on the chain; the rest stays here."
            : "What you move leaves the market while it is on the chain; the rest stays here.",
        };
      }
      return {
        ...common,
        intent: "claim-item",
        label: "Move to chain",
        note: item.onSale
          ? "Its sale ends, and the item leaves the market until it comes back into the game."
          : "The item leaves the market while it is on the chain.",
      };
    }
    case "leaving":
      return {
        ...common,
        intent: "pending",
        label: "Moving to chain",
        note: "Its claim is waiting for the chain: the item shows in your wallet once the chain has recorded it, and comes back into the game if the claim expires unused.",
      };
    case "chain": {
      const reason = intoGameRefusal(item);
      if (reason) return { intent: "refused", reason };
      const stack = chainStackOf(item.tokenId) !== null;
      return {
        ...common,
        intent: "swap-item",
        label: "Move into the game",
        ...(stack ? { amount: item.amount } : {}),
        // Said under a working "Sell on chain": where it goes, not that it cannot be traded.
        note: stack
          ? "What you move joins your stack in the game once the chain has recorded the move."
          : item.onSale
            ? "Its listing on chain ends, and it joins your game inventory once the chain has recorded the move."
            : "It joins your game inventory once the chain has recorded the move.",
      };
    }
    default:
      return null;
  }
}

/** What the browser-wallet bridge islands need to reach the chain: public by nature. */
export function bridgeChainConfig() {
  const { deployment, rpcUrl } = chain();
  const { fire, quark, card, assetManager, items } = deployment.contracts;
  return { chainId: deployment.chainId, rpcUrl, contracts: { fire, quark, card, assetManager, items } };
}

/**
 * A storage card's move: a form to /bridge for a managed wallet, the item's page for a browser wallet; or why the
 * item cannot move, by the rule the market refuses by.
 */
export function storageMove(
  record: { nftType: number; tokenId: string; amount: string; location: string; price?: string | null },
  detailHref: string,
  back: string,
  managed: boolean,
): StorageMove | null {
  if (record.location !== "game" && record.location !== "chain") return null;
  const toChain = record.location === "game";
  const reason = toChain ? toChainRefusal(record) : intoGameRefusal(record);
  if (reason) return { reason };
  const label = toChain ? "Move to chain" : "Move into the game";
  const form = managed
    ? {
        intent: toChain ? "claim-item" : "swap-item",
        nftType: String(record.nftType),
        tokenId: record.tokenId,
        back,
        idempotencyKey: newIdempotencyKey(),
      }
    : null;
  // A stack moves whole or in part: its form has an amount, all of it to start with.
  const stack = toChain ? movesAsStack(record) : chainStackOf(record.tokenId) !== null;
  // A listed item's move ends its sale, as the item page says: said here too, before the press.
  const note = isSale(record) ? (toChain ? "Its sale ends." : "Its listing on chain ends.") : undefined;
  return { label, form, href: `${detailHref}#move`, ...(stack ? { amount: record.amount } : {}), ...(note ? { note } : {}) };
}

registerActionFeature("bridge.", {
  // The game page's token forms, and an item's forms on the storage and detail pages.
  pages:
    /^\/(?:game|marketplace\/storage(?:\?[\w=&%.-]{0,300})?|marketplace\/detail\?nftType=\d&tokenId=\d{1,78}(?:&back=[\w%.-]{0,300})?)$/,
  home: () => "/game",
  backLabel: (page) => (page.startsWith("/marketplace/detail") ? "Back to the item" : "Back"),
});

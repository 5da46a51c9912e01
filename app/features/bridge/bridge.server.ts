/**
 * Between the game and the chain (issue 14), for the pages' loaders and actions:
 * - the market API's claims (takeOutTokenSign, takeOutSign, the account's claims);
 * - the wallet's tokens on chain;
 * - the managed wallet's moves (product §4 web path): a claim is signed by the market backend, then submitted by
 *   the SSO executor (bridge.claim); a swap is the executor's bridge.swapToken or bridge.swapNft. Every accepted
 *   post redirects (303) to the action's status page; a refusal keeps the backend's words and status.
 */
import { data, redirect } from "@remix-run/node";
import { gameTokenAbi } from "../../../contracts/generated/abi";
import type { ClaimRecord, SignedClaimWire, TokenRef } from "~core/api/market";
import { formatChainTime, formatIsoTime } from "~core/chain-text";
import { type Currency, formatPrice, parseTokenAmount } from "~core/money";
import { intoGameRefusal, toChainRefusal } from "~core/item-moves";
import { NFT_TYPE } from "~core/nft";
import { idempotencyKey as idempotencyKeyInput, STALE_FORM_MESSAGE } from "~/features/actions/action-forms.server";
import type { StorageMove } from "~/features/market/market-views";
import { usesWebPath } from "~/domain/wallet-mode";
import type { ItemMove } from "./move-item-form";
import { actionProblem, newIdempotencyKey, statusPath } from "~/features/actions/actions.server";
import { type Apis, signedInApis } from "~/services/apis.server";
import { chain, readBalances, walletFromUserInfo } from "~/services/chain.server";
import { BRIDGE_CURRENCIES, type BridgeCurrency } from "~/services/bridge-api.server";

export { BRIDGE_CURRENCIES, type BridgeCurrency };

/** The wallet's four tokens on chain, beside their game balances (FIRE and QUARK move between the two). */
export async function readBridgeWallet(wallet: `0x${string}`): Promise<Record<Currency, bigint>> {
  const { client, deployment } = chain();
  const read = (address: `0x${string}`) => client.readContract({ address, abi: gameTokenAbi, functionName: "balanceOf", args: [wallet] });
  const [FIRE, { QUARK, USDT, BNB }] = await Promise.all([read(deployment.contracts.fire), readBalances(wallet)]);
  return { FIRE, QUARK, USDT, BNB };
}

/** A claim in words, for the history on /game. */
export function claimRow(claim: ClaimRecord) {
  const what = claim.kind === 0 ? formatPrice(claim.idOrAmount, claim.currency ?? "") : `Item #${claim.idOrAmount}`;
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

export interface BridgeActionData {
  intent: BridgeIntent | null;
  errors: Record<string, string[]>;
  values: Record<string, string>;
  /** The page the form was on. */
  back: string;
}

export const BRIDGE_MANAGED_ONLY =
  "These forms are for accounts with a managed wallet. With a browser wallet, move assets with the wallet tools (they need JavaScript).";
const AMOUNT_MESSAGE = "Enter an amount as a number above zero, like 50 or 12.5.";
const CHAIN_DOWN = "The chain is not answering right now, so nothing was sent. Please try again in a moment.";

type Refused = { status: number; errors: Record<string, string[]> };
const refused = (message: string, status = 400, field = ""): Refused => ({ status, errors: { [field]: [message] } });

function tokenInput(formData: FormData): { currency: BridgeCurrency; amount: bigint } | Refused {
  const currency = BRIDGE_CURRENCIES.find((name) => name === formData.get("currency"));
  if (!currency) return refused("Choose FIRE or QUARK.", 400, "currency");
  const amount = parseTokenAmount(String(formData.get("amount") ?? "").trim());
  if (!amount) return refused(AMOUNT_MESSAGE, 400, "amount");
  return { currency, amount };
}

function itemInput(formData: FormData): TokenRef | Refused {
  const nftType = Number(formData.get("nftType"));
  const tokenId = String(formData.get("tokenId") ?? "");
  if (!Number.isInteger(nftType) || nftType < 0 || nftType > NFT_TYPE.material || !/^[1-9]\d{0,76}$/.test(tokenId))
    return refused(STALE_FORM_MESSAGE);
  return { nftType, tokenId };
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
 * wallet must be able to pay the gas of submitting it; a wallet without BNB is told so and nothing is taken.
 */
async function gasRefusal(wallet: `0x${string}`): Promise<Refused | null> {
  const bnb = await readBalances(wallet).then(
    (balances) => balances.BNB,
    () => null,
  );
  if (bnb === null) return refused(CHAIN_DOWN, 503);
  return bnb > 0n ? null : refused(`Your wallet holds no BNB to pay the gas of the claim. Send BNB to ${wallet} first.`);
}

async function run(
  intent: BridgeIntent,
  formData: FormData,
  { bridge, sso, wallet }: Pick<Apis, "sso" | "bridge"> & { wallet: `0x${string}` },
) {
  const idempotencyKey = String(formData.get("idempotencyKey") ?? "");
  if (!idempotencyKeyInput.safeParse(idempotencyKey).success) return refused(STALE_FORM_MESSAGE);
  if (intent === "submit-claim") {
    const txId = claimIdInput(formData);
    if (!txId) return refused(STALE_FORM_MESSAGE);
    const noGas = await gasRefusal(wallet);
    if (noGas) return noGas;
    return sso.startAction(claimRequest(await bridge.claimSign(txId), idempotencyKey));
  }
  if (intent === "claim-token" || intent === "swap-token") {
    const input = tokenInput(formData);
    if ("errors" in input) return input;
    if (intent === "swap-token") {
      return sso.startAction({
        action: "bridge.swapToken",
        params: { currency: input.currency, amount: input.amount.toString() },
        idempotencyKey,
      });
    }
    const noGas = await gasRefusal(wallet);
    if (noGas) return noGas;
    const claim = await bridge.takeOutToken(input.amount, input.currency, idempotencyKey);
    return sso.startAction(claimRequest(claim, idempotencyKey));
  }
  const ref = itemInput(formData);
  if ("errors" in ref) return ref;
  if (intent === "swap-item") {
    const stays = intoGameRefusal(ref);
    if (stays) return refused(stays);
    return sso.startAction({ action: "bridge.swapNft", params: { tokenId: ref.tokenId }, idempotencyKey });
  }
  const noGas = await gasRefusal(wallet);
  if (noGas) return noGas;
  const claim = await bridge.takeOutItem(ref, idempotencyKey);
  return sso.startAction(claimRequest(claim, idempotencyKey));
}

/**
 * A bridge form of a managed wallet, posted to `back`'s page (or /bridge): each accepted move goes to its status
 * page. Refusals come back as data with a 4xx, the field ("amount", "currency") or the whole form ("").
 */
export async function bridgeAction(request: Request, backOf: string | ((form: FormData) => string)) {
  const { user, sso, bridge } = await signedInApis(request);
  const formData = await request.formData();
  const back = typeof backOf === "string" ? backOf : backOf(formData);
  const posted = String(formData.get("intent") ?? "");
  const intent = BRIDGE_INTENTS.find((name) => name === posted) ?? null;
  const values = Object.fromEntries(["currency", "amount"].map((name) => [name, String(formData.get(name) ?? "").slice(0, 40)]));
  const answer = ({ status, errors }: Refused) => data<BridgeActionData>({ intent, errors, values, back }, { status });
  const wallet = walletFromUserInfo(user.WalletAddress);
  if (!wallet || !usesWebPath(true, { address: wallet, bindAddrType: user.BindAddrType })) return answer(refused(BRIDGE_MANAGED_ONLY, 403));
  if (!intent) return answer(refused("Unknown action."));
  try {
    const outcome = await run(intent, formData, { sso, bridge, wallet });
    if ("errors" in outcome) return answer(outcome);
    return redirect(statusPath(outcome.id, back), 303);
  } catch (error) {
    const problem = actionProblem(error);
    return answer(refused(problem.message, problem.status));
  }
}

/**
 * What an item's page offers the wallet that holds it: to move it to the chain, or back into the game, or why it
 * cannot (core/item-moves.ts, the rule the market refuses by). While a claim is pending (`leaving`) it says so
 * instead, so the page keeps its "Game and chain" section, and a browser wallet's island its outcome, until the
 * chain records the claim or the claim expires.
 */
export function itemMove(
  item: { nftType: number; tokenId: string; amount: number; location: string; isOwner: boolean; onSale: boolean },
  back: string,
): ItemMove | null {
  if (!item.isOwner) return null;
  const common = { nftType: String(item.nftType), tokenId: item.tokenId, back, idempotencyKey: newIdempotencyKey() };
  switch (item.location) {
    case "game": {
      const reason = toChainRefusal(item);
      if (reason) return { intent: "refused", reason };
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
      return {
        ...common,
        intent: "swap-item",
        label: "Move into the game",
        note: "It can be traded here again once the chain has recorded the move.",
      };
    }
    default:
      return null;
  }
}

/** What the browser-wallet bridge islands need to reach the chain: public by nature. */
export function bridgeChainConfig() {
  const { deployment, rpcUrl } = chain();
  const { fire, quark, card, assetManager } = deployment.contracts;
  return { chainId: deployment.chainId, rpcUrl, contracts: { fire, quark, card, assetManager } };
}

/**
 * A storage card's move: a form to /bridge for a managed wallet, the item's page for a browser wallet; or why the
 * item cannot move, by the rule the market refuses by.
 */
export function storageMove(
  record: { nftType: number; tokenId: string; amount: number; location: string },
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
  return { label, form, href: `${detailHref}#move` };
}

/**
 * Rebates paid on chain (issue 29, decision 0017), for /invite: a claimed rebate is an award the market signs and the
 * reward manager pays (awardClaim). A managed wallet's claim goes on to the SSO executor at once (reward.claim), and
 * an award still unpaid is submitted again by its txId; a browser wallet's award is submitted by its island
 * (award-claim.client.tsx through /resources/award-claim). Every accepted post redirects (303) to the action's status
 * page; a refusal keeps the backend's words and status.
 */
import type { ActionRequest } from "~core/api/actions";
import type { AwardRecord, SignedClaimWire } from "~core/api/market";
import { formatChainTime } from "~core/chain-text";
import { CURRENCIES, type Currency, formatPrice } from "~core/money";
import { STALE_FORM_MESSAGE } from "~/features/actions/action-forms.server";
import { managedAction, type ManagedPost, type Refusal, refusal, typed } from "~/features/actions/managed-action.server";
import { claimIdInput, gasRefusal } from "~/features/bridge/bridge.server";
import { registerActionFeature } from "~/services/action-features.server";
import type { Apis } from "~/services/apis.server";
import { chain } from "~/services/chain.server";

export const AWARD_INTENTS = ["claim", "submit-award"] as const;
export type AwardIntent = (typeof AWARD_INTENTS)[number];

export const AWARD_MANAGED_ONLY = "Your browser wallet claims to the chain itself: that needs JavaScript.";
export const CHOOSE_CURRENCY = "Choose a currency to claim.";

/** The currency a claim form posts, or null. */
export function currencyInput(form: FormData): Currency | null {
  return CURRENCIES.find((name) => name === form.get("currency")) ?? null;
}

/** An award in words, for the list on /invite; `submittable` while the chain may still pay it. */
export function awardRow(award: AwardRecord, now: number) {
  const until = formatChainTime(BigInt(award.deadline));
  const open = award.deadline * 1000 > now;
  const status =
    award.statusName === "paid"
      ? "Paid on chain"
      : award.statusName === "expired"
        ? "Expired: returned to your rebates, claim it again"
        : !open
          ? "Expired: it returns to your rebates once the chain is read past it"
          : award.statusName === "sent"
            ? `Sent: waiting for the chain (payable until ${until})`
            : `Signed: claim it to the chain before ${until}, or it returns to your rebates`;
  return {
    txId: award.txId,
    what: formatPrice(award.amount, award.currency),
    state: award.statusName,
    status,
    submittable: open && (award.statusName === "signed" || award.statusName === "sent"),
  };
}

export type AwardRow = ReturnType<typeof awardRow>;

/** What a browser wallet's island needs to reach the reward manager. */
export function awardChainConfig() {
  const { deployment, rpcUrl } = chain();
  return { chainId: deployment.chainId, rpcUrl, rewardManager: deployment.contracts.rewardManager };
}

/**
 * A currency's rebate signed as an award and handed out at once to be sent (so it lists as sent): what the executor
 * or the island submits right away.
 */
export async function awardToSend(invites: Apis["invites"], currency: Currency): Promise<SignedClaimWire> {
  const { award } = await invites.claimRebate(currency);
  return invites.awardSign(award.txId);
}

/** The executor's request for an award the market backend signed. */
const awardRequest = (claim: SignedClaimWire, idempotencyKey: string): ActionRequest => ({
  action: "reward.claim",
  params: { claim_content: claim.claim_content, v: claim.v, r: claim.r, s: claim.s },
  idempotencyKey,
});

/** An award in a token can pay its network fee from what it brings (decision 0038); one in BNB needs gas first. */
const claimOf = (currency: string) => (currency === "BNB" ? "item" : "tokens");

/** The executor's request for a claim form of a managed wallet; its gas is checked before the rebate is signed away. */
async function plan({
  intent,
  form,
  wallet,
  idempotencyKey,
  apis: { invites },
}: ManagedPost<AwardIntent>): Promise<ActionRequest | Refusal> {
  if (intent === "claim") {
    const currency = currencyInput(form);
    if (!currency) return refusal(CHOOSE_CURRENCY);
    return (await gasRefusal(wallet, claimOf(currency))) ?? awardRequest(await awardToSend(invites, currency), idempotencyKey);
  }
  const txId = claimIdInput(form);
  const award = txId ? (await invites.awards()).find((record) => record.txId === txId) : undefined;
  if (!txId || !award) return refusal(STALE_FORM_MESSAGE);
  return (await gasRefusal(wallet, claimOf(award.currency))) ?? awardRequest(await invites.awardSign(txId), idempotencyKey);
}

/** /invite's claim forms of a managed wallet: each accepted claim goes to its status page. */
export function awardAction(request: Request) {
  return managedAction(request, {
    intents: AWARD_INTENTS,
    managedOnly: AWARD_MANAGED_ONLY,
    back: "/invite",
    echo: (_intent, form) => typed(form, ["currency", "txId"], 20),
    plan,
  });
}

registerActionFeature("reward.", {
  pages: /^\/invite$/,
  home: () => "/invite",
  backLabel: () => "Back to your rebates",
});

/**
 * The managed wallet's loot box path (product §4 web path, issue 12): the box page's forms become named actions
 * of the SSO executor (POST /sso/actions), and every accepted post redirects (303) to the action's status page.
 * Each form render carries its own idempotency key, so a double post or a retry reaches the same execution.
 * Refusals keep the executor's words and status (a 4xx), shown next to the form that was posted.
 */
import { parseWithZod } from "@conform-to/zod";
import type { ActionRequest, Execution } from "~core/api/actions";
import { boxTitle } from "~core/boxes";
import { buySchema, LOOTBOX_INTENTS, OpenAllSchema, OpenBoughtSchema, OpenSchema, type LootboxIntent } from "./lootbox-schemas.server";
import { newIdempotencyKey } from "~/features/actions/actions.server";
import { CHAIN_DOWN_MESSAGE, invalid, managedAction, refusal, typed } from "~/features/actions/managed-action.server";
import type { ManagedPost, Refusal } from "~/features/actions/managed-action.server";
import type { Apis } from "~/services/apis.server";
import { chainNow, queryUserBoxes, readTypeSaleTerms } from "~/services/chain.server";
import { saleNotStartedMessage } from "~core/sale-terms";
import { type FollowUpForm, registerActionFeature } from "~/services/action-features.server";

/** The fields a player chooses on each form; everything else is the page's own (hidden) and comes fresh with it. */
const CHOSEN_FIELDS: Record<LootboxIntent, readonly string[]> = {
  buy: ["currency", "quantity"],
  open: ["count"],
  "open-all": [],
  "open-bought": [],
};

export const MANAGED_ONLY_MESSAGE =
  "These forms are for accounts with a managed wallet. With a browser wallet, buy and open with the wallet tools on this page (they need JavaScript).";

/** Box ids the wallet holds now of another type than the page's: refused, since each page opens its own type. */
async function checkBoxType(wallet: `0x${string}`, ids: readonly string[], typeBox: number): Promise<Refusal | null> {
  let held;
  try {
    held = await queryUserBoxes(wallet);
  } catch {
    return refusal(CHAIN_DOWN_MESSAGE, { status: 503 });
  }
  const types = new Map(held.map((box) => [box.id.toString(), box.typeBox]));
  const other = ids.find((id) => types.has(id) && types.get(id) !== typeBox);
  return other ? refusal(`Box #${other} is not one of this page's ${boxTitle(typeBox)}es. Reload the page to see your boxes.`) : null;
}

/** A purchase before the type's start date, refused here as the sale would refuse it (409: it is too early, not wrong). */
async function checkSaleOpen(typeBox: number): Promise<Refusal | null> {
  let startsAt: bigint, now: bigint;
  try {
    [{ startsAt }, now] = await Promise.all([readTypeSaleTerms(typeBox), chainNow()]);
  } catch {
    return refusal(CHAIN_DOWN_MESSAGE, { status: 503 });
  }
  return now < startsAt ? refusal(saleNotStartedMessage(startsAt), { status: 409 }) : null;
}

/** The boxes a purchase minted, when it is this page's mined purchase. */
async function boughtBoxes(sso: Apis["sso"], executionId: string, typeBox: number): Promise<string[] | Refusal> {
  const bought = await sso.execution(executionId);
  if (bought.action !== "lootbox.buy" || !("typeBox" in bought.params) || bought.params.typeBox !== typeBox) {
    return refusal("That purchase has no boxes to open on this page.");
  }
  if (bought.status !== "mined") return refusal("These boxes are not minted yet: wait until the purchase is mined.", { status: 409 });
  const ids = bought.result?.boxIds ?? [];
  return ids.length ? ids : refusal("That purchase has no boxes to open on this page.");
}

/** The form's submission as the executor's request, or why not (field errors come from the schemas). */
async function plan(typeBox: number, { intent, form, wallet, apis }: ManagedPost<LootboxIntent>): Promise<ActionRequest | Refusal> {
  if (intent === "buy") {
    const submission = parseWithZod(form, { schema: buySchema(typeBox) });
    if (submission.status !== "success") return invalid(submission.error);
    const { currency, quantity, idempotencyKey } = submission.value;
    return (await checkSaleOpen(typeBox)) ?? { action: "lootbox.buy", params: { typeBox, currency, quantity }, idempotencyKey };
  }
  if (intent === "open-bought") {
    const submission = parseWithZod(form, { schema: OpenBoughtSchema });
    if (submission.status !== "success") return invalid(submission.error);
    const boxIds = await boughtBoxes(apis.sso, submission.value.executionId, typeBox);
    if (!Array.isArray(boxIds)) return boxIds;
    return { action: "lootbox.open", params: { boxIds }, idempotencyKey: submission.value.idempotencyKey };
  }
  if (intent === "open") {
    const submission = parseWithZod(form, { schema: OpenSchema });
    if (submission.status !== "success") return invalid(submission.error);
    const { count, idempotencyKey } = submission.value;
    return { action: "lootbox.open", params: { typeBox, count }, idempotencyKey };
  }
  const submission = parseWithZod(form, { schema: OpenAllSchema });
  if (submission.status !== "success") return invalid(submission.error);
  const { boxIds, idempotencyKey } = submission.value;
  return (await checkBoxType(wallet, boxIds, typeBox)) ?? { action: "lootbox.open", params: { boxIds }, idempotencyKey };
}

/** The box page's action: one of LOOTBOX_INTENTS, posted by a signed-in account with a managed wallet. */
export function lootboxAction(request: Request, typeBox: number) {
  return managedAction(request, {
    intents: LOOTBOX_INTENTS,
    managedOnly: MANAGED_ONLY_MESSAGE,
    back: `/lootbox/${typeBox}`,
    // Only compared with the options the page offers, never shown; cut anyway.
    echo: (intent, form) => typed(form, intent ? CHOSEN_FIELDS[intent] : [], 20),
    // The executor reports the boxes once they are opened (decision 0009), not this form.
    plan: (post) => plan(typeBox, post),
  });
}

/**
 * What a loot box execution adds to its status page once mined: "Open now", which opens exactly the boxes the
 * purchase minted (the box page's action reads them from the execution). The executor reports the purchase itself.
 */
export async function lootboxFollowUp(execution: Execution): Promise<FollowUpForm | null> {
  if (execution.action !== "lootbox.buy" || execution.status !== "mined" || !("typeBox" in execution.params)) return null;
  const ids = execution.result?.boxIds ?? [];
  if (ids.length === 0) return null;
  const held = await queryUserBoxes(execution.wallet as `0x${string}`).then(
    (boxes) => new Set(boxes.map((box) => box.id.toString())),
    () => null,
  );
  // When the chain does not answer, offer the button anyway: the executor checks the boxes again.
  if (held && !ids.every((id) => held.has(id))) return null;
  return {
    action: `/lootbox/${execution.params.typeBox}`,
    fields: { intent: "open-bought", executionId: execution.id, idempotencyKey: newIdempotencyKey() },
    label: `Open now${ids.length > 1 ? ` (${ids.length} boxes)` : ""}`,
  };
}

registerActionFeature("lootbox.", {
  pages: /^\/lootbox\/\d{1,3}$/,
  // An opening names its boxes, not their type: its way back is the page it came from, or the game.
  home: ({ params }) => ("typeBox" in params ? `/lootbox/${params.typeBox}` : "/game"),
  backLabel: () => "Back to the loot box",
  followUp: lootboxFollowUp,
});

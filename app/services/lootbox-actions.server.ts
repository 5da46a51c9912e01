/**
 * The managed wallet's loot box path (product §4 web path, issue 12): the box page's forms become named actions
 * of the SSO executor (POST /sso/actions), and every accepted post redirects (303) to the action's status page.
 * Each form render carries its own idempotency key, so a double post or a retry reaches the same execution.
 * Refusals keep the executor's words and status (a 4xx), shown next to the form that was posted.
 */
import { parseWithZod } from "@conform-to/zod";
import { data, redirect } from "@remix-run/node";
import type { ActionRequest, Execution } from "~core/api/actions";
import { boxTitle } from "~core/boxes";
import {
  buySchema,
  LOOTBOX_INTENTS,
  OpenAllSchema,
  OpenBoughtSchema,
  OpenSchema,
  type LootboxIntent,
} from "~/domain/lootbox-schemas.server";
import { usesWebPath } from "~/domain/wallet-mode";
import { type FollowUpForm, registerFollowUp } from "./action-follow-ups.server";
import { actionProblem, newIdempotencyKey, statusPath } from "./actions.server";
import { signedInApis, type Apis } from "./apis.server";
import { queryUserBoxes, walletFromUserInfo } from "./chain.server";

/**
 * What a refused post answers, for the form of `intent`: the errors by field name ("" for the whole form), and
 * what the player had chosen, so the form comes back as it was posted (without JavaScript too).
 */
export interface LootboxActionData {
  intent: LootboxIntent | null;
  errors: Record<string, string[]>;
  values: Record<string, string>;
}

/** The fields a player chooses on each form; everything else is the page's own (hidden) and comes fresh with it. */
const CHOSEN_FIELDS: Record<LootboxIntent, readonly string[]> = {
  buy: ["currency", "quantity"],
  open: ["count"],
  "open-all": [],
  "open-bought": [],
};

function chosenValues(intent: LootboxIntent | null, formData: FormData): Record<string, string> {
  const fields = intent ? CHOSEN_FIELDS[intent] : [];
  // Only compared with the options the page offers, never shown; cut anyway, so a refusal never echoes a large body.
  return Object.fromEntries(
    fields.flatMap((name) => {
      const value = formData.get(name);
      return typeof value === "string" ? [[name, value.slice(0, 20)]] : [];
    }),
  );
}

export const MANAGED_ONLY_MESSAGE =
  "These forms are for accounts with a managed wallet. With a browser wallet, buy and open with the wallet tools on this page (they need JavaScript).";
export const CHAIN_DOWN_MESSAGE = "The chain is not answering right now, so nothing was sent. Please try again in a moment.";

type Refusal = { status: number; errors: Record<string, string[]> };
const refusal = (message: string, status = 400): Refusal => ({ status, errors: { "": [message] } });

/** Box ids the wallet holds now of another type than the page's: refused, since each page opens its own type. */
async function checkBoxType(wallet: `0x${string}`, ids: readonly string[], typeBox: number): Promise<Refusal | null> {
  let held;
  try {
    held = await queryUserBoxes(wallet);
  } catch {
    return refusal(CHAIN_DOWN_MESSAGE, 503);
  }
  const types = new Map(held.map((box) => [box.id.toString(), box.typeBox]));
  const other = ids.find((id) => types.has(id) && types.get(id) !== typeBox);
  return other ? refusal(`Box #${other} is not one of this page's ${boxTitle(typeBox)}es. Reload the page to see your boxes.`) : null;
}

/** The boxes a purchase minted, when it is this page's mined purchase. */
async function boughtBoxes(sso: Apis["sso"], executionId: string, typeBox: number): Promise<string[] | Refusal> {
  const bought = await sso.execution(executionId);
  if (bought.action !== "lootbox.buy" || !("typeBox" in bought.params) || bought.params.typeBox !== typeBox) {
    return refusal("That purchase has no boxes to open on this page.");
  }
  if (bought.status !== "mined") return refusal("These boxes are not minted yet: wait until the purchase is mined.", 409);
  const ids = bought.result?.boxIds ?? [];
  return ids.length ? ids : refusal("That purchase has no boxes to open on this page.");
}

/** The form's submission as the executor's request, or why not (field errors come from the schemas). */
async function actionRequest(
  intent: LootboxIntent,
  formData: FormData,
  { typeBox, wallet, sso }: { typeBox: number; wallet: `0x${string}`; sso: Apis["sso"] },
): Promise<ActionRequest | Refusal> {
  const invalid = (error: Record<string, string[] | null> | null | undefined): Refusal => ({
    status: 400,
    errors: Object.fromEntries(Object.entries(error ?? {}).filter((entry): entry is [string, string[]] => Boolean(entry[1]?.length))),
  });
  if (intent === "buy") {
    const submission = parseWithZod(formData, { schema: buySchema(typeBox) });
    if (submission.status !== "success") return invalid(submission.error);
    const { currency, quantity, idempotencyKey } = submission.value;
    return { action: "lootbox.buy", params: { typeBox, currency, quantity }, idempotencyKey };
  }
  if (intent === "open-bought") {
    const submission = parseWithZod(formData, { schema: OpenBoughtSchema });
    if (submission.status !== "success") return invalid(submission.error);
    const boxIds = await boughtBoxes(sso, submission.value.executionId, typeBox);
    if (!Array.isArray(boxIds)) return boxIds;
    return { action: "lootbox.open", params: { boxIds }, idempotencyKey: submission.value.idempotencyKey };
  }
  const submission = parseWithZod(formData, { schema: intent === "open" ? OpenSchema : OpenAllSchema });
  if (submission.status !== "success") return invalid(submission.error);
  const { boxIds, idempotencyKey } = submission.value;
  return (await checkBoxType(wallet, boxIds, typeBox)) ?? { action: "lootbox.open", params: { boxIds }, idempotencyKey };
}

/** The box page's action: one of LOOTBOX_INTENTS, posted by a signed-in account with a managed wallet. */
export async function lootboxAction(request: Request, typeBox: number) {
  const { user, sso } = await signedInApis(request);
  const formData = await request.formData();
  const posted = String(formData.get("intent") ?? "");
  const intent = LOOTBOX_INTENTS.find((name) => name === posted) ?? null;
  const answer = ({ status, errors }: Refusal) =>
    data<LootboxActionData>({ intent, errors, values: chosenValues(intent, formData) }, { status });

  const wallet = walletFromUserInfo(user.WalletAddress);
  if (!wallet || !usesWebPath(true, { address: wallet, bindAddrType: user.BindAddrType }))
    return answer(refusal(MANAGED_ONLY_MESSAGE, 403));
  if (!intent) return answer(refusal("Unknown action."));
  try {
    const built = await actionRequest(intent, formData, { typeBox, wallet, sso });
    if ("errors" in built) return answer(built);
    // The executor reports the boxes once they are opened (decision 0009).
    const execution = await sso.startAction(built);
    return redirect(statusPath(execution.id, `/lootbox/${typeBox}`), 303);
  } catch (error) {
    const problem = actionProblem(error);
    return answer(refusal(problem.message, problem.status));
  }
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

registerFollowUp("lootbox.", lootboxFollowUp);

/**
 * The one way a managed wallet's form starts an on-chain action (product §4 web path; the SSO executor,
 * docs/api/sso.md "On-chain actions"). A feature names its intents and turns a checked post into the executor's
 * request; this module does the rest the same way for every feature: only a signed-in account with a managed
 * wallet, a known intent and a fresh idempotency key get that far; an accepted action redirects (303) to its
 * status page, and a refusal comes back with a 4xx, next to its field or its form, with the values as typed.
 */
import { data, redirect, type TypedResponse } from "@remix-run/node";
import type { Address } from "viem";
import type { ActionRequest } from "~core/api/actions";
import { usesWebPath } from "~/domain/wallet-mode";
import { signedInApis, type Apis } from "~/services/apis.server";
import { walletFromUserInfo } from "~/services/chain.server";
import { idempotencyKey as idempotencyKeyInput, STALE_FORM_MESSAGE } from "./action-forms.server";
import { actionProblem, reviewPath, statusPath } from "./actions.server";

export const CHAIN_DOWN_MESSAGE = "The chain is not answering right now, so nothing was sent. Please try again in a moment.";

/** What a refused post answers: which form it was, the errors by field ("" for the whole form), and what was typed. */
export interface ActionAnswer<Intent extends string = string> {
  intent: Intent | null;
  errors: Record<string, string[]>;
  values: Record<string, string>;
}

export interface Refusal {
  status: number;
  errors: Record<string, string[]>;
}

export function refusal(message: string, { status = 400, field = "" }: { status?: number; field?: string } = {}): Refusal {
  return { status, errors: { [field]: [message] } };
}

export const isRefusal = <T extends object>(outcome: T | Refusal): outcome is Refusal => "errors" in outcome;

/** A schema's field errors (Conform's submission.error) as a refusal, without the fields that passed. */
export function invalid(error: Record<string, string[] | null> | null | undefined): Refusal {
  const errors = Object.entries(error ?? {}).filter((entry): entry is [string, string[]] => Boolean(entry[1]?.length));
  return { status: 400, errors: Object.fromEntries(errors) };
}

/** A post that passed the common checks, for the feature to turn into the executor's request. */
export interface ManagedPost<Intent extends string> {
  intent: Intent;
  form: FormData;
  idempotencyKey: string;
  wallet: Address;
  apis: Apis;
}

export interface ManagedActionSpec<Intent extends string> {
  intents: readonly Intent[];
  /** Said to an account without a managed wallet: a browser wallet acts through the page's island. */
  managedOnly: string;
  /** The page the form was on; the status page leads back there. */
  back: string | ((form: FormData) => string);
  /** The fields a refused form shows again as typed (cut short: a refusal never echoes a large body). */
  echo: (intent: Intent | null, form: FormData) => Record<string, string>;
  /** The executor's request; or a finished answer, when the form needs no on-chain action (a review, a signed listing). */
  plan: (post: ManagedPost<Intent>) => Promise<ActionRequest | Refusal | Response>;
  /** The field an executor's refusal of this intent belongs next to (the form's, when none). */
  refusalField?: (intent: Intent) => string | undefined;
}

/** A posted text field, cut to `max` characters. */
export const formText = (form: FormData, name: string, max = 100) => String(form.get(name) ?? "").slice(0, max);

/** The values of `names` that were posted, each cut to `max` characters, for `echo`. */
export function typed(form: FormData, names: readonly string[], max = 100): Record<string, string> {
  return Object.fromEntries(
    names.flatMap((name) => {
      const value = form.get(name);
      return typeof value === "string" ? [[name, value.slice(0, max)]] : [];
    }),
  );
}

export async function managedAction<Intent extends string>(request: Request, spec: ManagedActionSpec<Intent>) {
  const apis = await signedInApis(request);
  const form = await request.formData();
  const posted = form.get("intent");
  const intent = spec.intents.find((name) => name === posted) ?? null;
  const back = typeof spec.back === "string" ? spec.back : spec.back(form);
  const answer = ({ status, errors }: Refusal) =>
    data<ActionAnswer<Intent>>({ intent, errors, values: spec.echo(intent, form) }, { status });

  const wallet = walletFromUserInfo(apis.user.WalletAddress);
  if (!wallet || !usesWebPath(true, { address: wallet, bindAddrType: apis.user.BindAddrType }))
    return answer(refusal(spec.managedOnly, { status: 403 }));
  if (!intent) return answer(refusal("Unknown action."));
  const key = formText(form, "idempotencyKey", 200);
  if (!idempotencyKeyInput.safeParse(key).success) return answer(refusal(STALE_FORM_MESSAGE));
  const started = (id: string) => redirect(statusPath(id, back), 303);
  const problemAnswer = (error: unknown) => {
    const problem = actionProblem(error);
    const field = problem.status === 400 ? spec.refusalField?.(intent) : undefined;
    return answer(refusal(problem.message, { status: problem.status, field }));
  };
  // A form used before (a resent page, a second click) leads to the action it started: the chain may have moved since,
  // and the plan's checks would refuse what the first post did. A key names one action forever (docs/api/sso.md).
  const earlier = () => apis.sso.executionByKey(key).catch(() => null);
  let planned: Awaited<ReturnType<typeof spec.plan>>;
  try {
    planned = await spec.plan({ intent, form, idempotencyKey: key, wallet, apis });
  } catch (error) {
    const execution = await earlier();
    return execution ? started(execution.id) : problemAnswer(error);
  }
  // A feature's own answer (its data typed by its page), not one of these forms' refusals.
  if (planned instanceof Response) return planned as TypedResponse<never>;
  if (isRefusal(planned)) {
    const execution = await earlier();
    return execution ? started(execution.id) : answer(planned);
  }
  try {
    const answer = await apis.sso.startAction(planned);
    // A wallet without the BNB for its gas: the site's gas tank pays it for a fee in tokens, shown for review first.
    if ("review" in answer) return redirect(reviewPath(answer.review.id, back), 303);
    return started(answer.id);
  } catch (error) {
    return problemAnswer(error);
  }
}

/**
 * What the browser-wallet islands' claim requests share (resources.bridge-claim, resources.award-claim): the market
 * backend signs a claim for the session's bound wallet and the island submits it from the wallet. Each answers
 * { claim } or { message } (with `field` when one form field is at fault) with a 4xx/5xx.
 */
import { json } from "@remix-run/node";
import { backendProblem, signedInApis } from "~/services/apis.server";
import { walletFromUserInfo } from "~/services/chain.server";
import { claimIdInput } from "./bridge.server";

type Apis = Awaited<ReturnType<typeof signedInApis>>;

/**
 * A claim request of a signed-in account with a bound wallet: `answer` takes the posted form by its intent (undefined
 * for none of its intents). A backend refusal answers its reason, a failure its message, with its status; a refusal
 * whose words start with `${field}: ` is that form field's.
 */
export async function claimRequest(
  request: Request,
  answer: (apis: Apis, intent: FormDataEntryValue | null, form: FormData) => Promise<Response | undefined>,
  field?: string,
) {
  const apis = await signedInApis(request);
  if (!walletFromUserInfo(apis.user.WalletAddress)) return json({ message: "Bind a wallet to your account first." }, { status: 403 });
  const form = await request.formData();
  try {
    return (await answer(apis, form.get("intent"), form)) ?? json({ message: "Unknown action." }, { status: 400 });
  } catch (error) {
    const problem = backendProblem(error);
    const message = problem.status < 500 ? problem.reason : problem.message;
    if (field && problem.status === 400 && message.startsWith(`${field}: `))
      return json({ message: message.slice(`${field}: `.length), field }, { status: 400 });
    return json({ message }, { status: problem.status });
  }
}

/** A pending claim asked for again by the form's txId, after the wallet turned it down; `lost` says it is not there. */
export async function claimAgain(form: FormData, lost: string, sign: (txId: string) => Promise<unknown>) {
  const txId = claimIdInput(form);
  if (!txId) return json({ message: lost }, { status: 400 });
  return json({ claim: await sign(txId) });
}

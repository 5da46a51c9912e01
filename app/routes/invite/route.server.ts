/**
 * The referral page's server work; routes/invite/route.tsx only delegates: the invite code, the rebates, the awards
 * that pay them on chain (issue 29) and, per wallet kind, how an award is claimed: a managed wallet's forms (fresh
 * idempotency keys) through the SSO executor, a browser wallet's island config. The loader answers a Response (json),
 * which tests/unit/backend-down.test.ts reads.
 */
import { data, json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { usesWebPath, type BoundWallet } from "~/domain/wallet-mode";
import { newIdempotencyKey } from "~/features/actions/actions.server";
import type { ActionAnswer } from "~/features/actions/managed-action.server";
import { awardAction, awardChainConfig, awardRow, CHOOSE_CURRENCY, currencyInput } from "~/features/invites/awards.server";
import { rebatesView } from "~/features/invites/invite-views.server";
import { apis, backendProblem } from "~/services/apis.server";
import { getEnv } from "~/services/env.server";
import { makeToast, redirectWithToast } from "~/services/session.server";
import { CURRENCIES } from "~core/money";

export async function invitePage({ request }: LoaderFunctionArgs) {
  const { token, user, invites } = await apis(request);
  if (!token || !user) return json({ state: "visitor" as const });
  if (!user.WalletAddress) return json({ state: "no-wallet" as const });
  try {
    const [invite, rebates, awards] = await Promise.all([invites.getInviteCode(), invites.showRebateInfo(), invites.awards()]);
    const inviteLink = new URL(invite.invitePath, getEnv().publicUrl).toString();
    const now = Date.now();
    const rows = awards.map((award) => awardRow(award, now));
    const bound: BoundWallet = { address: user.WalletAddress, bindAddrType: user.BindAddrType };
    const managed = usesWebPath(true, bound);
    const page = { state: "ready" as const, invite, rebates: rebatesView(rebates), inviteLink, awards: rows, bound };
    if (!managed) return json({ ...page, keys: null, island: awardChainConfig() });
    // Fresh keys per render, never cached: going back never re-posts an old key.
    const keys = {
      claim: Object.fromEntries(CURRENCIES.map((currency) => [currency, newIdempotencyKey()])),
      submit: Object.fromEntries(rows.filter((row) => row.submittable).map((row) => [row.txId, newIdempotencyKey()])),
    };
    return json({ ...page, keys, island: null }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    // A market that is down or hung is a message on the page, like the market pages show.
    const problem = backendProblem(error);
    return json({ state: "problem" as const, message: problem.message }, { status: problem.status });
  }
}

const answer = (message: string, status: number) => data<ActionAnswer>({ intent: null, errors: { "": [message] }, values: {} }, { status });

/**
 * A claim form. A managed wallet's goes on to the executor (awards.server.ts); a browser wallet's, posted without
 * JavaScript, has the award signed, for its island to submit once JavaScript runs.
 */
export async function invitePost({ request }: ActionFunctionArgs) {
  const { token, user, invites } = await apis(request);
  if (!token || !user) return answer("Log in to claim your rebates.", 401);
  if (usesWebPath(true, { address: user.WalletAddress, bindAddrType: user.BindAddrType })) return awardAction(request);
  const currency = currencyInput(await request.formData());
  if (!currency) return answer(CHOOSE_CURRENCY, 400);
  try {
    const result = await invites.claimRebate(currency);
    return redirectWithToast(
      request,
      "/invite",
      makeToast("success", `Your ${result.currency} rebate is signed for your wallet: claim it to the chain under Awards.`),
    );
  } catch (error) {
    const problem = backendProblem(error);
    return answer(problem.message, problem.status);
  }
}

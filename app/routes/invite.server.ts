import { json } from "@remix-run/node";
import { z } from "zod";
import { CURRENCIES } from "~core/money";
import { getAuth, withSession } from "~/services/auth.server";
import { backendClients } from "~/services/backends.server";
import { getEnv } from "~/services/env.server";
import { BackendError } from "~/services/http-client.server";
import { invitesApi } from "~/services/invites.server";
import { makeToast, redirectWithToast } from "~/services/session.server";
import { backendProblem } from "./marketplace.shared.server";

export async function loadInvite(request: Request) {
  const { token, user } = await getAuth(request);
  if (!token || !user) return json({ state: "visitor" as const });
  if (!user.WalletAddress) return json({ state: "no-wallet" as const });
  const api = invitesApi(backendClients(token).market);
  try {
    const [invite, rebates] = await withSession(request, () => Promise.all([api.getInviteCode(), api.showRebateInfo()]));
    const inviteLink = new URL(invite.invitePath, getEnv().publicUrl).toString();
    return json({ state: "ready" as const, invite, rebates, inviteLink });
  } catch (error) {
    // A market that is down or hung is a message on the page, like the market pages show.
    const problem = backendProblem(error);
    return json({ state: "problem" as const, message: problem.message }, { status: problem.status });
  }
}

const ClaimSchema = z.object({ currency: z.enum(CURRENCIES) });

/** Moves a currency's claimable rebate into the game balance. */
export async function claimRebate(request: Request) {
  const { token } = await getAuth(request);
  if (!token) return json({ error: "Log in to claim your rebates." }, { status: 401 });
  const parsed = ClaimSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return json({ error: "Choose a currency to claim." }, { status: 400 });
  try {
    const result = await withSession(request, () => invitesApi(backendClients(token).market).claimRebate(parsed.data.currency));
    return redirectWithToast(request, "/invite", makeToast("success", `Claimed your ${result.currency} rebate into your game balance.`));
  } catch (error) {
    if (error instanceof BackendError) return json({ error: error.message }, { status: error.status >= 500 ? 502 : 400 });
    throw error;
  }
}

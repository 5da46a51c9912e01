import { type LoaderFunctionArgs } from "@remix-run/node";
import { invitePosterSvg } from "~/domain/invite-poster";
import { getAuth, withSession } from "~/services/auth.server";
import { backendClients } from "~/services/backends.server";
import { getEnv } from "~/services/env.server";
import { invitesApi } from "~/services/invites.server";
import { backendProblem } from "./marketplace.shared.server";

/** GET /invite/poster.svg: the signed-in user's invitation poster. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { token, user } = await getAuth(request);
  if (!token || !user?.WalletAddress) return new Response("Log in with a wallet to get your poster.", { status: 401 });
  let invite;
  try {
    invite = await withSession(request, () => invitesApi(backendClients(token).market).getInviteCode(), "/invite");
  } catch (error) {
    const problem = backendProblem(error);
    return new Response(problem.message, { status: problem.status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }
  const svg = invitePosterSvg({ code: invite.inviteCode, link: new URL(invite.invitePath, getEnv().publicUrl).toString() });
  return new Response(svg, { headers: { "Content-Type": "image/svg+xml; charset=utf-8", "Cache-Control": "private, max-age=300" } });
}

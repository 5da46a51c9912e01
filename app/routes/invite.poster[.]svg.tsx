import { type LoaderFunctionArgs } from "@remix-run/node";
import { invitePosterSvg } from "~/domain/invite-poster";
import { getAuth, withSession } from "~/services/auth.server";
import { backendClients } from "~/services/backends.server";
import { getEnv } from "~/services/env.server";
import { invitesApi } from "~/services/invites.server";

/** GET /invite/poster.svg: the signed-in user's invitation poster. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { token, user } = await getAuth(request);
  if (!token || !user?.WalletAddress) return new Response("Log in with a wallet to get your poster.", { status: 401 });
  const invite = await withSession(request, () => invitesApi(backendClients(token).market).getInviteCode(), "/invite");
  const svg = invitePosterSvg({ code: invite.inviteCode, link: new URL(invite.invitePath, getEnv().publicUrl).toString() });
  return new Response(svg, { headers: { "Content-Type": "image/svg+xml; charset=utf-8", "Cache-Control": "private, max-age=300" } });
}

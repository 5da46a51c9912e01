import { type LoaderFunctionArgs } from "@remix-run/node";
import { invitePosterSvg } from "~/features/invites/invite-poster";
import { apis, backendProblem } from "~/services/apis.server";
import { getEnv } from "~/services/env.server";

/** GET /invite/poster.svg: the signed-in user's invitation poster. */
export async function loader({ request }: LoaderFunctionArgs) {
  // An expired session shows its dialog on the invite page, where the poster is offered.
  const { token, user, invites } = await apis(request, { returnTo: "/invite" });
  if (!token || !user?.WalletAddress) return new Response("Log in with a wallet to get your poster.", { status: 401 });
  let invite;
  try {
    invite = await invites.getInviteCode();
  } catch (error) {
    const problem = backendProblem(error);
    return new Response(problem.message, {
      status: problem.status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  const svg = invitePosterSvg({ code: invite.inviteCode, link: new URL(invite.invitePath, getEnv().publicUrl).toString() });
  return new Response(svg, { headers: { "Content-Type": "image/svg+xml; charset=utf-8", "Cache-Control": "private, max-age=300" } });
}

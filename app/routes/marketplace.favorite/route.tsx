import { json, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { BIND_WALLET_MESSAGE } from "~/components/notices";
import { FavoriteSchema } from "~/features/market/favorite-schemas.server";
import { loginHref } from "~/domain/login-href";
import { safeRedirect } from "~/domain/safe-redirect";
import { apis, backendProblem } from "~/services/apis.server";
import { commitSession, getSession, makeToast, redirectWithToast, type Dialog } from "~/services/session.server";

async function redirectWithDialog(request: Request, to: string, dialog: Dialog) {
  const session = await getSession(request);
  session.flash("dialog", dialog);
  return redirect(to, { headers: { "Set-Cookie": await commitSession(session) } });
}

/**
 * A resource route: the favorite toggle posts here (see FavoriteButton). Product §4 "Favorite: toggled by add or
 * remove", for the session's wallet. A visitor goes to log in and comes back; an account without a wallet gets
 * product §8's "Please bind a wallet address"; an expired session the "Tips" dialog. Without JavaScript every
 * outcome is a redirect back to the page; the fetcher gets `{ isFavorite, favorites }` or `{ error }`.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = Object.fromEntries(await request.formData());
  const parsed = FavoriteSchema.safeParse(form);
  const fetchMode = form.mode === "fetch";
  const back = safeRedirect(typeof form.redirectTo === "string" ? form.redirectTo : null, "/marketplace/market");
  if (!parsed.success) {
    const message = "This favorite request was incomplete. Please reload the page and try again.";
    return fetchMode ? json({ error: message }, { status: 400 }) : redirectWithDialog(request, back, { kind: "failed", message });
  }
  const { tokenId, nftType, intent } = parsed.data;
  const { token, user, wallet, market } = await apis(request, { returnTo: back });
  if (!token || !user) return redirect(loginHref(back));
  if (!wallet) return redirectWithDialog(request, back, { kind: "bind-wallet" });
  try {
    const result = await market.setFavorite({ tokenId, nftType }, wallet, intent === "add");
    if (fetchMode) return json({ isFavorite: result.isFavorite, favorites: result.favorites });
    const done = result.isFavorite ? "Added to your favorites." : "Removed from your favorites.";
    return redirectWithToast(request, back, makeToast("success", done));
  } catch (error) {
    const problem = backendProblem(error);
    if (problem.reason === BIND_WALLET_MESSAGE) return redirectWithDialog(request, back, { kind: "bind-wallet" });
    if (fetchMode) return json({ error: problem.message }, { status: problem.status });
    return redirectWithDialog(request, back, { kind: "failed", message: problem.message });
  }
}

/** Nothing to show at this address: the favorites live in storage. */
export function loader() {
  return redirect("/marketplace/storage?tab=favorites");
}

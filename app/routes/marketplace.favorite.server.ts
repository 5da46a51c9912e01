import { json, redirect } from "@remix-run/node";
import { z } from "zod";
import { loginHref, safeRedirect } from "~/domain/safe-redirect";
import { withSession } from "~/services/auth.server";
import { backendClients } from "~/services/backends.server";
import { BackendError } from "~/services/http-client.server";
import { marketApi } from "~/services/market.server";
import { commitSession, getSession, makeToast, redirectWithToast, type Dialog } from "~/services/session.server";
import { BIND_WALLET_MESSAGE } from "~/components/notices";
import { viewer } from "./marketplace.shared.server";

/** The toggle's hidden fields; nothing here is typed by a person, so a failure is a broken or forged form. */
const FavoriteSchema = z.object({
  tokenId: z.string().regex(/^\d{1,78}$/, "tokenId: expected a token id"),
  nftType: z.coerce.number().int().min(0).max(8),
  intent: z.enum(["add", "remove"]),
  redirectTo: z.string().max(2000).optional(),
  /** Sent by the JavaScript fetcher: answer with data, not a redirect. */
  mode: z.literal("fetch").optional(),
});

async function redirectWithDialog(request: Request, to: string, dialog: Dialog) {
  const session = await getSession(request);
  session.flash("dialog", dialog);
  return redirect(to, { headers: { "Set-Cookie": await commitSession(session) } });
}

/**
 * SPEC §4 "Favorite: toggled by add or remove", for the session's wallet. A visitor goes to log in and comes
 * back; an account without a wallet gets SPEC §8's "Please bind a wallet address"; an expired session the
 * "Tips" dialog. Without JavaScript every outcome is a redirect back to the page.
 */
export async function favoriteAction(request: Request) {
  const form = Object.fromEntries(await request.formData());
  const parsed = FavoriteSchema.safeParse(form);
  const fetchMode = form.mode === "fetch";
  const back = safeRedirect(typeof form.redirectTo === "string" ? form.redirectTo : null, "/marketplace/market");
  if (!parsed.success) {
    const message = "This favorite request was incomplete. Please reload the page and try again.";
    return fetchMode ? json({ error: message }, { status: 400 }) : redirectWithDialog(request, back, { kind: "failed", message });
  }
  const { tokenId, nftType, intent } = parsed.data;
  const { token, user, wallet } = await viewer(request);
  if (!token || !user) return redirect(loginHref(back));
  if (!wallet) return redirectWithDialog(request, back, { kind: "bind-wallet" });
  try {
    const result = await withSession(request, () => marketApi(backendClients(token).market).setFavorite({ tokenId, nftType }, wallet, intent === "add"), back);
    if (fetchMode) return json({ isFavorite: result.isFavorite, favorites: result.favorites });
    return redirectWithToast(request, back, makeToast("success", result.isFavorite ? "Added to your favorites." : "Removed from your favorites."));
  } catch (error) {
    if (!(error instanceof BackendError)) throw error;
    if (error.status === 403 && error.message === BIND_WALLET_MESSAGE) return redirectWithDialog(request, back, { kind: "bind-wallet" });
    const status = error.status >= 500 ? 502 : error.status;
    return fetchMode ? json({ error: error.message }, { status }) : redirectWithDialog(request, back, { kind: "failed", message: error.message });
  }
}

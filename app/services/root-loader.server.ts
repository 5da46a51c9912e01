/**
 * The root loader's work: public env, the page user, one-shot notices. Kept out of root.tsx so that the root route
 * imports a single server module that no other route imports: the classic compiler emits an empty browser chunk
 * for every server module shared between the root and a route, and each page downloaded those stubs.
 */
import { json } from "@remix-run/node";
import type { UserInfo } from "~core/api/sso";
import { shortAddress } from "~core/address";
import { shownAmount } from "~core/money";
import { apis } from "./apis.server";
import { readGasBalance, walletFromUserInfo } from "./chain.server";
import { getPublicEnv } from "./env.server";
import { SessionExpiredError } from "./http-client.server";
import { liteMode } from "./lite-mode.server";
import { shareFor } from "./share-tags.server";
import { commitSession, pageUser, readFlash } from "./session.server";

export async function rootData(request: Request) {
  const flash = await readFlash(request);
  const { session, toast, consumed } = flash;
  let dialog = flash.dialog;
  let changed = consumed;
  const token = session.get("token");
  let sessionUser: UserInfo | undefined = token ? session.get("user") : undefined;
  // product §2: a token without user info loads the info. A 401 must not redirect: the dialog shows on this page.
  if (token && !sessionUser) {
    try {
      const { sso } = await apis(request, { onExpired: "throw" });
      sessionUser = await sso.getUserInfo();
      session.set("user", sessionUser);
    } catch (error) {
      if (!(error instanceof SessionExpiredError)) throw error;
      session.unset("token");
      dialog = { kind: "session-expired", redirectTo: new URL(request.url).pathname };
    }
    changed = true;
  }
  const user = sessionUser ? pageUser(sessionUser) : null;
  const managedWallet = user?.managedWallet ? walletFromUserInfo(user.walletAddress) : null;
  const [lite, gasWei, unread] = await Promise.all([
    liteMode(request),
    managedWallet ? readGasBalance(managedWallet) : null,
    user ? unreadAlerts(request) : null,
  ]);
  // A managed wallet's header shows its address and the BNB that pays its gas (issue 23), both written here so no
  // page's bundle carries the code.
  const managed = managedWallet
    ? { address: managedWallet, short: shortAddress(managedWallet), gas: gasWei === null ? null : shownAmount(gasWei, "BNB", "balance") }
    : null;
  // The header's inbox link and unread count, written here (issue 30), so every page ships only a link and a badge.
  const inbox = unread === null ? null : { text: unread ? `Inbox, ${unread} unread` : "Inbox", count: unread ? String(unread) : "" };
  const pageUserWithWallet = user ? { ...user, managed, inbox } : null;
  return json(
    // Issue 42: the site's share tags for this URL; a page's loader may send its own (root.tsx renders the deepest).
    { env: getPublicEnv(), user: pageUserWithWallet, toast, dialog, lite, share: shareFor(request) },
    changed ? { headers: { "Set-Cookie": await commitSession(session) } } : undefined,
  );
}

/** The header's unread count for a signed-in page, or null (no session, or the market did not answer: the page still shows). */
async function unreadAlerts(request: Request): Promise<number | null> {
  try {
    const { token, watches } = await apis(request, { onExpired: "throw" });
    return token ? (await watches.unread()).unread : null;
  } catch {
    return null;
  }
}

import { Link } from "@remix-run/react";
import { BIND_WALLET_MESSAGE } from "~/components/notices";
import { LoginPrompt } from "~/components/page";

/**
 * What a player's own market page (storage, offers) shows for want of a wallet: a visitor, the login prompt to
 * `visitor`; an account with no wallet bound, the bind notice to `noWallet`, with a link to bind one at `bindHref`.
 */
export function WalletGate({
  view,
  visitor,
  noWallet,
  bindHref,
}: {
  view: { state: string; loginHref?: string };
  visitor: string;
  noWallet: string;
  bindHref?: string;
}) {
  if (view.state === "visitor" && view.loginHref) {
    return (
      <section className="card">
        <LoginPrompt href={view.loginHref} what={visitor} />
      </section>
    );
  }
  if (view.state !== "no-wallet") return null;
  return (
    <section className={bindHref ? "card flex flex-wrap items-center justify-between gap-3" : "card"}>
      <p className="text-white">{`${BIND_WALLET_MESSAGE} to ${noWallet}.`}</p>
      {bindHref && (
        <Link to={bindHref} className="btn-primary">
          Bind now
        </Link>
      )}
    </section>
  );
}

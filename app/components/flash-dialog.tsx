/**
 * product §8 dialogs, rendered by the server from the flash: links and forms, so they work without JavaScript. A module
 * of its own, which root loads only for a page that has a dialog: few pages do, and every page's bundle is budgeted.
 */
import { Form, Link, useLocation } from "@remix-run/react";
import type { Dialog } from "~/services/session.server";
import { BIND_WALLET_MESSAGE, SESSION_EXPIRED_MESSAGE } from "./notices";

function DialogFrame({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/60 p-4">
      <section role="alertdialog" aria-modal="true" aria-labelledby="flash-dialog-title" className="card w-full max-w-sm">
        <h2 id="flash-dialog-title" className="section-title">
          {title}
        </h2>
        {children}
      </section>
    </div>
  );
}

export default function FlashDialog({ dialog }: { dialog: Dialog }) {
  const location = useLocation();
  const here = location.pathname + location.search;
  if (dialog.kind === "session-expired") {
    return (
      <DialogFrame title="Tips">
        <p className="mt-2 text-slate-200">{SESSION_EXPIRED_MESSAGE}</p>
        <div className="mt-4 flex justify-end gap-2">
          <Link to={here} replace className="btn-secondary">
            Stay
          </Link>
          <Form method="post" action={`/logout?redirect=${encodeURIComponent(`/login?redirect=${encodeURIComponent(dialog.redirectTo)}`)}`}>
            <button type="submit" className="btn-primary">
              Re-login
            </button>
          </Form>
        </div>
      </DialogFrame>
    );
  }
  if (dialog.kind === "bind-wallet") {
    return (
      <DialogFrame title="Tips">
        <p className="mt-2 text-slate-200">{BIND_WALLET_MESSAGE}</p>
        <div className="mt-4 flex justify-end gap-2">
          <Link to={here} replace className="btn-secondary">
            Cancel
          </Link>
          <Link to="/login?act=connect" className="btn-primary">
            Bind now
          </Link>
        </div>
      </DialogFrame>
    );
  }
  return (
    <DialogFrame title="Failed">
      <p className="mt-2 text-slate-200">{dialog.message}</p>
      <div className="mt-4 flex justify-end">
        <Link to={here} replace className="btn-primary">
          OK
        </Link>
      </div>
    </DialogFrame>
  );
}

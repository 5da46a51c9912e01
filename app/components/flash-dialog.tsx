/**
 * product §8 dialogs, rendered by the server from the flash: links and forms, so they work without JavaScript. A module
 * of its own, which root loads only for a page that has a dialog: few pages do, and every page's bundle is budgeted.
 */
import { Form, Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { Dialog } from "~/services/session.server";
import { BIND_WALLET_MESSAGE, SESSION_EXPIRED_MESSAGE } from "./notices";

/** A dialog with its message, a button that closes it (back to this page) and, beside that, the dialog's own action. */
function DialogFrame({
  title,
  message,
  dismissLabel,
  action,
}: {
  title: string;
  message: string;
  dismissLabel: string;
  action?: ReactNode;
}) {
  const location = useLocation();
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/60 p-4">
      <section role="alertdialog" aria-modal="true" aria-labelledby="flash-dialog-title" className="card w-full max-w-sm">
        <h2 id="flash-dialog-title" className="section-title">
          {title}
        </h2>
        <p className="mt-2 text-slate-200">{message}</p>
        <div className="mt-4 flex justify-end gap-2">
          <Link to={location.pathname + location.search} replace className={action ? "btn-secondary" : "btn-primary"}>
            {dismissLabel}
          </Link>
          {action}
        </div>
      </section>
    </div>
  );
}

export default function FlashDialog({ dialog }: { dialog: Dialog }) {
  if (dialog.kind === "session-expired") {
    return (
      <DialogFrame
        title="Tips"
        message={SESSION_EXPIRED_MESSAGE}
        dismissLabel="Stay"
        action={
          <Form method="post" action={`/logout?redirect=${encodeURIComponent(`/login?redirect=${encodeURIComponent(dialog.redirectTo)}`)}`}>
            <button type="submit" className="btn-primary">
              Re-login
            </button>
          </Form>
        }
      />
    );
  }
  if (dialog.kind === "bind-wallet") {
    return (
      <DialogFrame
        title="Tips"
        message={BIND_WALLET_MESSAGE}
        dismissLabel="Cancel"
        action={
          <Link to="/login?act=connect" className="btn-primary">
            Bind now
          </Link>
        }
      />
    );
  }
  return <DialogFrame title="Failed" message={dialog.message} dismissLabel="OK" />;
}

import { useEffect, useState } from "react";
import { TOAST_DURATION_MS } from "~core/constants";
import type { Toast } from "~/services/session.server";

const TOAST_EVENT = "spark:toast";

/** Shows a toast from the browser (copy results, wallet events); the server's toasts come from the flash. */
export function showToast(kind: Toast["kind"], message: string, title?: string) {
  const toast: Toast = { kind, message, title, durationMs: TOAST_DURATION_MS };
  window.dispatchEvent(new CustomEvent<Toast>(TOAST_EVENT, { detail: toast }));
}

export const SESSION_EXPIRED_MESSAGE = "Your login status has expired, you can stay on this page or log in again.";
export const BIND_WALLET_MESSAGE = "Please bind a wallet address";

/**
 * A toast from the session flash. It fades out after its duration by CSS alone, so it also leaves
 * without JavaScript; with JavaScript it is removed from the DOM too.
 */
export function ToastView({ toast: serverToast }: { toast: Toast | null }) {
  const [toast, setToast] = useState(serverToast);
  const [visible, setVisible] = useState(true);
  useEffect(() => setToast(serverToast), [serverToast]);
  useEffect(() => {
    const onToast = (event: Event) => setToast((event as CustomEvent<Toast>).detail);
    window.addEventListener(TOAST_EVENT, onToast);
    return () => window.removeEventListener(TOAST_EVENT, onToast);
  }, []);
  useEffect(() => {
    setVisible(true);
    if (!toast) return;
    const timer = setTimeout(() => setVisible(false), toast.durationMs);
    return () => clearTimeout(timer);
  }, [toast]);
  if (!toast || !visible) return null;
  const tone =
    toast.kind === "error"
      ? "border-red-400 bg-red-950"
      : toast.kind === "success"
        ? "border-emerald-400 bg-emerald-950"
        : "border-nebula-400 bg-space-800";
  return (
    <div
      key={`${toast.message}-${toast.kind}`}
      role="status"
      className={`toast fixed bottom-4 left-1/2 z-50 w-[min(24rem,calc(100vw-2rem))] -translate-x-1/2 rounded-lg border px-4 py-3 text-sm shadow-xl ${tone}`}
      style={{ animationDelay: `${toast.durationMs}ms` }}
    >
      {toast.title && <p className="font-semibold">{toast.title}</p>}
      <p>{toast.message}</p>
    </div>
  );
}

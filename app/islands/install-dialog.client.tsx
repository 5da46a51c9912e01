/**
 * product §8's install dialog, loaded when an action needs a browser wallet and the browser has none
 * (eip1193.ts requestWalletInstall): a browser without a wallet downloads it only then.
 */
import { useEffect, useRef } from "react";
import { createRoot } from "react-dom/client";
import { BROWSER_WALLETS } from "./eip1193";

/** product §8's "Tips" dialog. A modal <dialog> sits in the top layer, above the sticky header, and handles Escape. */
function InstallDialog({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    dialog.showModal();
    dialog.querySelector("button")?.focus();
    return () => dialog.close();
  }, []);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-labelledby="install-dialog-title"
      aria-describedby="install-dialog-text"
      className="card w-full max-w-sm text-slate-100 backdrop:bg-black/60"
    >
      <h2 id="install-dialog-title" className="section-title">
        Tips
      </h2>
      <p id="install-dialog-text" className="mt-2 text-slate-200">
        Please install the wallet plugin (MetaMask or OKX Wallet) to continue, then reload this page.
      </p>
      <ul className="mt-3 flex flex-col gap-1">
        {Object.values(BROWSER_WALLETS).map((wallet) => (
          <li key={wallet.rdns}>
            <a href={wallet.installUrl} target="_blank" rel="noopener noreferrer">
              Install {wallet.name}
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </li>
        ))}
      </ul>
      <form method="dialog" className="mt-4 flex justify-end">
        <button type="submit" className="btn-primary">
          Close
        </button>
      </form>
    </dialog>
  );
}

let shown = false;

/** Shows the dialog once at a time, in a root of its own at the end of the body. */
export function showInstallDialog() {
  if (shown) return;
  shown = true;
  const host = document.body.appendChild(document.createElement("div"));
  const root = createRoot(host);
  root.render(
    <InstallDialog
      onClose={() => {
        shown = false;
        root.unmount();
        host.remove();
      }}
    />,
  );
}

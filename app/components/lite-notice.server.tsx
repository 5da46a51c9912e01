/**
 * The lite mode notice: said on every page in lite mode, with the way out. A server module, since a lite page runs no
 * script and so never hydrates it: no browser downloads this code (issue 23, the JS budget).
 */
import { Form, useLocation } from "@remix-run/react";

export function LiteNotice({ source }: { source: "switch" | "save-data" }) {
  const location = useLocation();
  return (
    <div className="border-b border-space-800 bg-space-900 text-sm" data-testid="lite-notice">
      <Form method="post" action="/lite" className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2">
        <input type="hidden" name="mode" value="off" />
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <p>
          Lite mode{source === "save-data" ? ", as your browser asks to save data" : ""}: pages load no JavaScript. Browser-wallet signing
          needs it.
        </p>
        <button type="submit" className="font-semibold text-spark-300 underline">
          Turn lite mode off
        </button>
      </Form>
    </div>
  );
}

import { useNavigate } from "@remix-run/react";
import { createContext, useContext, type MouseEvent } from "react";

/**
 * A read-only section's markup as loader data (services/server-html.server.ts serverMarkup). For a document, the
 * markup travels once, in the document: `html` is null and `key` names it, in the page (`data-server-markup`) and in
 * the request's markup that entry.server.tsx hands to the render. For a client-side navigation (a .data request) it
 * comes inline, with no key.
 */
export interface ServerMarkup {
  key: string;
  html: string | null;
}

/** On the server, the markup of the document being rendered, by key (entry.server.tsx). */
export const ServerMarkupContext = createContext<ReadonlyMap<string, string> | null>(null);

/** In the browser, the markup hydration found in the document, by key: read once, kept for later renders. */
const documentCopies = new Map<string, string>();

function documentCopy(key: string): string {
  let html = documentCopies.get(key);
  if (html === undefined) {
    // Hydration: React has not touched the server's element yet, so its markup is the document's.
    html = typeof document === "undefined" ? "" : (document.querySelector(`[data-server-markup="${key}"]`)?.innerHTML ?? "");
    documentCopies.set(key, html);
  }
  return html;
}

/**
 * Markup a loader rendered from a `.server.tsx` view (services/server-html.server.ts): read-only sections whose code
 * then never ships to the browser (docs/decisions/0025). Hydration keeps the server's markup as it is. A click on one
 * of its same-site links navigates as a Remix link would, instead of loading a whole document.
 */
export function ServerHtml({ markup, className }: { markup: ServerMarkup; className?: string }) {
  const navigate = useNavigate();
  const rendered = useContext(ServerMarkupContext);
  const { key } = markup;
  const html = markup.html ?? rendered?.get(key) ?? documentCopy(key);
  const follow = (event: MouseEvent) => {
    const link = (event.target as Element).closest("a");
    if (!link || event.defaultPrevented || event.button || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (link.target || link.hasAttribute("download") || link.origin !== window.location.origin) return;
    event.preventDefault();
    navigate(link.pathname + link.search + link.hash);
  };
  // The clicks handled are its links' own (a keyboard activates a link by a click too): the div is no control itself.
  return (
    <div
      className={className}
      data-server-markup={markup.html === null ? key : undefined}
      onClick={follow}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

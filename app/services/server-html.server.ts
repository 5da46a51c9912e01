import { createHash } from "node:crypto";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { ServerMarkup } from "~/components/server-html";
import { currentRequestScope } from "./request-scope.server";

/** A read-only view's markup, for ServerHtml (components/server-html.tsx): React escapes it as it renders any page. */
export function serverHtml(view: ReactElement): string {
  return renderToStaticMarkup(view);
}

/**
 * Markup as a loader returns it (decision 0025, issue 44). For a document it travels once: kept in the request's scope
 * for the render (entry.server.tsx), and the loader data names it by a key (a hash of it: the same page renders the
 * same bytes, which the page cache's checks compare) that the browser finds in the document when it hydrates. For a
 * client-side navigation (a .data request), and outside a request, it is the markup itself.
 */
export function serverMarkup(html: string): ServerMarkup {
  const scope = currentRequestScope();
  if (!html || !scope?.document) return { key: "", html };
  const key = createHash("sha256").update(html).digest("base64url").slice(0, 16);
  (scope.markup ??= new Map()).set(key, html);
  return { key, html: null };
}

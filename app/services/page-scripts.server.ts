/** The page's inline script (components/page-scripts.tsx) and its inert preload links, made on the server only. */
import type { EntryContext } from "@remix-run/node";
import { NO_JS_COOKIE } from "~/domain/no-js";
import type { LiteSource } from "./lite-mode.server";

/**
 * The module preloads Remix's <Scripts> writes as link tags (its list: the entry, its imports, and each rendered
 * route's module and imports, up to the route whose error boundary shows), as a script that adds them.
 */
function preloadScript({ manifest, staticHandlerContext: { matches, errors } }: EntryContext): string {
  const shown = errors ? matches.slice(0, matches.findIndex((match) => errors[match.route.id] !== undefined) + 1) : matches;
  const routes = shown.flatMap((match) => {
    const route = manifest.routes[match.route.id];
    return route ? [...(route.imports ?? []), route.module] : [];
  });
  const hrefs = [...new Set([manifest.entry.module, ...manifest.entry.imports, ...routes])];
  return `for(const h of ${JSON.stringify(hrefs).replaceAll("<", "\\u003c")}){const l=document.createElement("link");l.rel="modulepreload";l.href=h;document.head.append(l)}`;
}

/** Deletes the no-JS cookie and, once it is gone, reloads: the page then comes with its scripts. */
const SCRIPTS_ARE_BACK =
  `document.cookie="${NO_JS_COOKIE}=;path=/;max-age=0;samesite=lax";` +
  `if(!document.cookie.split("; ").some(c=>c.startsWith("${NO_JS_COOKIE}=")))location.reload()`;

/** The script for the page: the preloads, or the way back to scripts on a page rendered for a browser without them. */
export function serverScript(context: EntryContext): string {
  const root = context.staticHandlerContext.loaderData.root as { lite?: LiteSource | null } | undefined;
  return root?.lite === "no-js" ? SCRIPTS_ARE_BACK : preloadScript(context);
}

/** What makes a modulepreload link fetch nothing: a media query no device matches (a link without rel is invalid HTML). */
export const INERT_MEDIA = "not all";

/**
 * <Scripts>' modulepreload links, inert: with JavaScript off too, a browser fetches a preload only where its media
 * matches. React hydrates them as they are (it does not patch attributes) and removes them once hydrated, as it always did.
 */
export function inertModulePreloads(html: string): string {
  return html.replaceAll('<link rel="modulepreload" href="', `<link rel="modulepreload" media="${INERT_MEDIA}" href="`);
}

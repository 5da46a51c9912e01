import { useNavigate } from "@remix-run/react";
import type { MouseEvent } from "react";

/**
 * Markup a loader rendered from a `.server.tsx` view (services/server-html.server.ts): read-only sections whose code
 * then never ships to the browser (docs/decisions/0025). Hydration keeps the server's markup as it is. A click on one
 * of its same-site links navigates as a Remix link would, instead of loading a whole document.
 */
export function ServerHtml({ html, className }: { html: string; className?: string }) {
  const navigate = useNavigate();
  const follow = (event: MouseEvent) => {
    const link = (event.target as Element).closest("a");
    if (!link || event.defaultPrevented || event.button || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (link.target || link.hasAttribute("download") || link.origin !== window.location.origin) return;
    event.preventDefault();
    navigate(link.pathname + link.search + link.hash);
  };
  // The clicks handled are its links' own (a keyboard activates a link by a click too): the div is no control itself.
  return <div className={className} onClick={follow} dangerouslySetInnerHTML={{ __html: html }} />;
}

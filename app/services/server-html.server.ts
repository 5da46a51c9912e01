import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";

/** A read-only view's markup, for ServerHtml (components/server-html.tsx): React escapes it as it renders any page. */
export function serverHtml(view: ReactElement): string {
  return renderToStaticMarkup(view);
}

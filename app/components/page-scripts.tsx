/**
 * The page's scripts for a browser that runs them, and nothing for one that runs none (issue 23). Chromium with
 * JavaScript off still fetches every <link rel="modulepreload">, so the server writes Remix's preload links with a
 * media no device matches, inert (services/page-scripts.server.ts), and the same preloads come from an inline script in
 * the head: a browser with JavaScript gets them early. The script's text is made on the server
 * and reaches the page by ServerScript, so none of it is in the bundle; hydration keeps the server's text.
 */
import { Scripts } from "@remix-run/react";
import { createContext, useContext } from "react";

/**
 * The inline script the server wrote for this page: the preloads or, on a page rendered for a browser without
 * JavaScript, the script that drops the no-JS cookie and reloads if scripts run after all. Empty in the browser.
 */
export const ServerScript = createContext("");

/**
 * The server's script, in the head: a browser with JavaScript starts fetching the page's modules as soon as the head
 * is parsed, not once the whole document is (issue 42: the modules were found last, after the parse, on a slow phone).
 */
export function HeadScript({ nonce }: { nonce: string | undefined }) {
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: useContext(ServerScript) }} />;
}

export function PageScripts({ nonce }: { nonce: string | undefined }) {
  return (
    <>
      <Scripts nonce={nonce} />
      {/* With JavaScript off, this sets the no-JS cookie (routes/resources.no-js/route.ts): the next pages come without scripts. */}
      <noscript>
        <img src="/resources/no-js" alt="" width={1} height={1} hidden />
      </noscript>
    </>
  );
}

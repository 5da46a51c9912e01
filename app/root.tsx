import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, ScrollRestoration, useMatches, useRouteLoaderData, type UIMatch } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-page";
import { Header, SocialLinks } from "~/components/header";
import { LiteNotice } from "~/components/lite-notice.server";
import { showToast, ToastView } from "~/components/notices";
import { useNonce } from "~/components/nonce";
import { HeadScript, PageScripts } from "~/components/page-scripts";
import { lazy, startTransition, Suspense, useEffect, useState } from "react";
import { TOAST_DURATION_MS } from "~core/constants";
import { onWalletExtension } from "~/islands/wallet-store";
import { rootData } from "~/services/root-loader.server";
import type { ShareTag } from "~/services/share-tags.server";
import stylesheet from "~/tailwind.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

// The description and the other share tags come with the loaders' data (Layout below), for every page.
export const meta: MetaFunction = () => [{ title: "Spark Era" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return rootData(request);
}

export type RootLoader = typeof loader;

/**
 * Watches the browser wallet on every page, in a browser that has one; lazy and wagmi-free, so pages without
 * wallet actions stay light, and a browser without a wallet downloads none of it.
 */
const WalletWatcher = lazy(() => import("~/islands/wallet-watcher.client"));

/**
 * Loaded only by a page that has a dialog. No Suspense boundary above it: the server then waits for it and writes it
 * inline (a boundary would stream it hidden, for a script to reveal), and hydration waits for its chunk.
 */
const FlashDialog = lazy(() => import("~/components/flash-dialog"));

/** product §8: "Network switch" and "accounts switch" toasts, then the page reloads once the toast has been seen. */
function toastThenReload(message: string) {
  showToast("info", message);
  window.setTimeout(() => window.location.reload(), TOAST_DURATION_MS);
}

/** What a route's `handle` may ask of the document. */
export interface RouteHandle {
  /** Hide the header and footer (product §2: /stripe/success). */
  hideHeader?: boolean;
  /**
   * The page's route only: with JavaScript off, reload after this many seconds, given its loader data (undefined
   * when it failed); null for no reload. A <noscript> meta refresh, in the head where it belongs.
   */
  refreshSeconds?: (data: unknown) => number | null;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<RootLoader>("root");
  const nonce = useNonce();
  const matches = useMatches() as UIMatch<unknown, RouteHandle | undefined>[];
  const hideHeader = matches.some((match) => match.handle?.hideHeader);
  const page = matches[matches.length - 1];
  const refreshSeconds = page?.handle?.refreshSeconds?.(page.data);
  // Issue 42: the deepest loader's share tags (the root's are the site's), written on the server.
  const share = [...matches].reverse().find((match) => (match.data as { share?: unknown } | undefined)?.share)?.data as
    | { share: ShareTag[] }
    | undefined;
  // Lite mode (issue 17): no script and no modulepreload at all; the page works as it does with JavaScript off.
  const lite = Boolean(data?.lite);
  // Lite because the browser runs no script (issue 23): the visitor chose nothing, so no notice and the switch off.
  const source = data?.lite ?? null;
  const chosenLite = source === "no-js" ? null : source;
  const [walletToWatch, setWalletToWatch] = useState(false);
  // A transition: this state sits above every Suspense boundary of the page, Remix's streamed ones among them, and an
  // urgent update that reaches a boundary still hydrating throws it out to client rendering (React error #421).
  useEffect(() => onWalletExtension(() => startTransition(() => setWalletToWatch(true))), []);
  // Sentry in the browser only with a DSN, by a dynamic import: without one, pages download none of it.
  const sentryDsn = data?.env.sentryDsn;
  useEffect(() => {
    if (sentryDsn) void import("~/sentry.client").then((sentry) => sentry.startSentry(sentryDsn));
  }, [sentryDsn]);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {refreshSeconds ? (
          lite ? (
            <meta httpEquiv="refresh" content={String(refreshSeconds)} />
          ) : (
            <noscript>
              <meta httpEquiv="refresh" content={String(refreshSeconds)} />
            </noscript>
          )
        ) : null}
        {/* Lets CSS keep room for islands that will replace their no-JavaScript fallback (no layout shift). */}
        {!lite && <script nonce={nonce} dangerouslySetInnerHTML={{ __html: 'document.documentElement.classList.add("js")' }} />}
        <Meta />
        {share?.share.map(([Tag, props], i) => (
          <Tag key={i} {...props} />
        ))}
        <Links />
        {(!lite || source === "no-js") && <HeadScript nonce={nonce} />}
      </head>
      <body className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-space-800 focus:p-2"
        >
          Skip to content
        </a>
        {data && !hideHeader && <Header env={data.env} user={data.user} lite={Boolean(chosenLite)} />}
        {chosenLite && <LiteNotice source={chosenLite} />}
        {/* Sticky notice bar slot: the wallet island fills it when the connected wallet differs from the bound one. */}
        <div id="notice-bar" className="sticky top-16 z-20">
          {data && !lite && walletToWatch && (
            <Suspense fallback={null}>
              <WalletWatcher
                bound={data.user ? { address: data.user.walletAddress, bindAddrType: data.user.bindAddrType } : null}
                toastThenReload={toastThenReload}
              />
            </Suspense>
          )}
        </div>
        <main id="main" className="flex-1">
          {children}
        </main>
        {data && !hideHeader && (
          <footer className="border-t border-space-800 py-8">
            <div className="mx-auto flex max-w-6xl flex-col items-center gap-4 px-4 text-sm text-slate-300 sm:flex-row sm:justify-between">
              <p>© Spark Era. Play, collect and trade across the stars.</p>
              <SocialLinks social={data.env.social} />
            </div>
          </footer>
        )}
        {data && <ToastView toast={data.toast} />}
        {data?.dialog && <FlashDialog dialog={data.dialog} />}
        {!lite && <ScrollRestoration nonce={nonce} />}
        {!lite && <PageScripts nonce={nonce} />}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

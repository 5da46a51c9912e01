import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer, isRouteErrorResponse } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { BUSY_RETRY_AFTER_SECONDS } from "~core/constants";
import { NonceProvider } from "~/components/nonce";
import { ServerScript } from "~/components/page-scripts";
import { ServerMarkupContext } from "~/components/server-html";
import { writtenPart } from "~/services/fizz-chunks.server";
import { getEnv } from "~/services/env.server";
import { inertModulePreloads, serverScript } from "~/services/page-scripts.server";
import { currentRequestScope } from "~/services/request-scope.server";
// The features whose actions the status page shows (services/action-features.server.ts): each registers at load.
import "~/features/bridge/bridge.server";
import "~/features/invites/awards.server";
import "~/features/market/chain-trade.server";
import "~/features/offers/chain-offer-actions.server";
import "~/features/lootbox/lootbox-actions.server";
import "~/features/spaceship/spaceship-actions.server";
import "~/features/staking/staking-actions.server";

const ABORT_DELAY_MS = 5_000;
export const streamTimeout = ABORT_DELAY_MS;
/** A render still unfinished this long after it started is cut short (its pending parts left to the browser). */
const RENDER_DEADLINE_MS = ABORT_DELAY_MS + 1000;
const TOO_SLOW = "The server took too long to answer. Please try again in a few seconds.";

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // Empty for a page any cache may copy (server/page-cache.ts): no nonce attribute at all, its scripts go by their hashes.
  const nonce = loadContext.cspNonce || undefined;
  // The page's own route names the request in the metrics, even when it has no loader.
  const timings = currentRequestScope()?.timings;
  const { matches } = remixContext.staticHandlerContext;
  if (matches.length) timings?.routeRan(matches[matches.length - 1].route.id, matches.length - 1);
  const renderStarted = performance.now();
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let cutShort = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce ?? ""}>
        <ServerScript.Provider value={serverScript(remixContext)}>
          <ServerMarkupContext.Provider value={currentRequestScope()?.markup ?? null}>
            <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} nonce={nonce} />
          </ServerMarkupContext.Provider>
        </ServerScript.Provider>
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          shellRendered = true;
          clearTimeout(deadline);
          const chunks: Buffer[] = [];
          pipe(
            new Writable({
              write(chunk: Buffer, _encoding, done) {
                chunks.push(Buffer.from(writtenPart(chunk)));
                done();
              },
              final(done) {
                const body = Buffer.from(inertModulePreloads(Buffer.concat(chunks).toString("utf8")));
                responseHeaders.set("Content-Type", "text/html; charset=utf-8");
                // Every page depends on the cookies (session, lite mode, no-JS) and on Save-Data (lite mode).
                responseHeaders.append("Vary", "Cookie, Save-Data");
                responseHeaders.set("Content-Length", String(body.byteLength));
                if (timings) timings.renderMs = performance.now() - renderStarted;
                resolve(new Response(body, { headers: responseHeaders, status: responseStatusCode }));
                done();
              },
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          // React reports our own abort once per unfinished part: the server was too busy, not the page broken.
          if (cutShort) return;
          responseStatusCode = 500;
          if (shellRendered) logError(error);
        },
      },
    );
    const deadline = setTimeout(() => {
      cutShort = true;
      responseStatusCode = 503;
      responseHeaders.set("Retry-After", String(BUSY_RETRY_AFTER_SECONDS));
      responseHeaders.set("Cache-Control", "no-store");
      logWarning(`503 render cut short after ${RENDER_DEADLINE_MS} ms`);
      abort();
      // An abort before the shell is done ends the render without a word (neither onAllReady nor onShellError).
      if (!shellRendered) {
        responseHeaders.set("Content-Type", "text/plain; charset=utf-8");
        resolve(new Response(TOO_SLOW, { status: 503, headers: responseHeaders }));
      }
    }, RENDER_DEADLINE_MS);
  });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  // A 404 or 405 from routing is the client's mistake, already answered: no stack for it.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  // Remix warns on every legacy `?_data` request; our client never sends one, so only probes would fill the log.
  if (error instanceof Error && error.message.startsWith("Warning: Single fetch-enabled apps should not be making ?_data requests")) return;
  logError(error);
  // Only with a DSN: without one, Sentry is never even loaded.
  if (getEnv().SENTRY_DSN) {
    import("@sentry/remix")
      .then((Sentry) => Sentry.captureRemixServerException(error, "remix.server.handleError", request))
      .catch(() => undefined);
  }
}

/** One error line, with the request's id when there is a request. */
function logError(error: unknown) {
  const log = currentRequestScope()?.log;
  if (log) log.error({ err: error }, "request failed");
  else console.error(error);
}

/** One warning line, with the request's id when there is a request. */
function logWarning(line: string) {
  const log = currentRequestScope()?.log;
  if (log) log.warn(line);
  else console.warn(line);
}

/**
 * What every page with on-chain actions of a managed wallet shares (the SSO executor, docs/api/sso.md "On-chain
 * actions"): a fresh idempotency key per form render, the status page's address, and the one mapping of an
 * executor failure to what the page answers. Loot boxes, staking, the bridge and the spaceship pages use it.
 */
import { randomBytes } from "node:crypto";
import { wayBack, type ActionOf } from "~/services/action-features.server";
import { backendProblem, signedInApis } from "~/services/apis.server";
import { BackendError } from "~/services/http-client.server";

/** A fresh key for one form render: 24 URL-safe characters from 18 random bytes. */
export function newIdempotencyKey(): string {
  return randomBytes(18).toString("base64url");
}

/** Where an accepted action is followed; `back` is the page its forms were on. */
export function statusPath(executionId: string, back: string): string {
  return `/actions/${executionId}?back=${encodeURIComponent(back)}`;
}

/** Where a sponsored action's network fee is reviewed before it is queued (decision 0038). */
export function reviewPath(quoteId: string, back: string): string {
  return `/actions/review/${quoteId}?back=${encodeURIComponent(back)}`;
}

/**
 * A failed executor call as a form or the status page shows it: the executor's refusals (400, 403, 404, 409, rate limit 429) and a
 * chain that does not answer (503) keep their status and words; the SSO backend down or too slow is a 502. The
 * expired-session redirect and anything else are thrown on.
 */
export function actionProblem(error: unknown): { status: number; message: string } {
  if (error instanceof BackendError && ((error.status >= 400 && error.status < 500) || error.status === 503)) {
    return { status: error.status, message: error.message };
  }
  if (error instanceof BackendError) return { status: 502, message: `The wallet service could not be reached: ${error.message}` };
  return backendProblem(error);
}

/** An executor id in a page's address (an execution's, or a network fee quote's): anything else is a 404. */
export function executorId(id: string | undefined): string {
  if (!id || !/^[0-9a-f]{32}$/.test(id)) throw new Response("Not found", { status: 404 });
  return id;
}

/** The page an action's link says it was started from (`?back=`), for wayBack. */
export const requestedBack = (request: Request) => new URL(request.url).searchParams.get("back");

type Sso = Awaited<ReturnType<typeof signedInApis>>["sso"];

/**
 * What an action's own pages (its status, its fee review) read first: the signed-in owner's record of it, `read` by
 * the id in the address, with the way back. An id the executor does not know (or another player's) is a 404; any
 * other failed read is the problem the page shows, and the way back then leads to any feature's page.
 */
export async function ownActionRecord<T extends ActionOf>(
  request: Request,
  params: { id?: string },
  read: (sso: Sso, id: string) => Promise<T>,
) {
  const id = executorId(params.id);
  const { sso } = await signedInApis(request);
  let record: T;
  try {
    record = await read(sso, id);
  } catch (error) {
    const problem = actionProblem(error);
    if (problem.status === 404) throw new Response("Not found", { status: 404 });
    return { record: null, problem, back: wayBack(null, requestedBack(request)) };
  }
  return { record, problem: null, back: wayBack(record, requestedBack(request)) };
}

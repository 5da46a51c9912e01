/**
 * A bound on how many pages render at once (issue 24, item 4). Rendering is CPU work on the one event loop, so
 * renders started together finish together: a burst whose loaders all end at once (a hung backend's timeouts) had
 * every render overrun its abort and answer 500. Here at most `limit` render at a time, a bounded queue waits its
 * turn briefly, and the rest are shed at once with a 503 the browser may retry. Only the document render is bounded:
 * loaders waiting on a backend cost no CPU, so a slow backend behind one page does not turn visitors of the others
 * away. /healthz, static files, data requests and the app's calls to its embedded backends never render a page.
 */
import type { ServerBuild } from "@remix-run/node";
import { BUSY_RETRY_AFTER_SECONDS } from "../core/constants";
import { currentRequestScope } from "../app/services/request-scope.server";
import { plainPage } from "./plain-page";

export type Release = () => void;
export type Admitted = { admitted: true; release: Release } | { admitted: false; reason: "queue full" | "waited too long" };

export interface AdmissionOptions {
  /** Renders running at once. */
  limit: number;
  /** Renders waiting for a turn; one more is shed at once. */
  queue: number;
  /** How long a render may wait for its turn before it is shed. */
  maxWaitMs: number;
}

/** Renders that may wait, and for how long: past that a visitor is better told to retry than kept waiting. */
export const RENDER_QUEUE = 256;
export const RENDER_MAX_WAIT_MS = 3_000;

/** `limit` slots and a first-come first-served queue of bounded length and wait. */
export class Admission {
  private running = 0;
  private readonly waiting: { admit: (admitted: Admitted) => void; timer: NodeJS.Timeout }[] = [];

  constructor(private readonly options: AdmissionOptions) {}

  get stats() {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** A slot, to give back with `release` (once; a second call does nothing), or why there is none. */
  enter(): Promise<Admitted> {
    if (this.running < this.options.limit) {
      this.running += 1;
      return Promise.resolve({ admitted: true, release: this.releaser() });
    }
    if (this.waiting.length >= this.options.queue) return Promise.resolve({ admitted: false, reason: "queue full" });
    return new Promise((resolve) => {
      const entry = {
        admit: resolve,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(entry), 1);
          resolve({ admitted: false, reason: "waited too long" });
        }, this.options.maxWaitMs),
      };
      this.waiting.push(entry);
    });
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (!next) {
        this.running -= 1;
        return;
      }
      // The slot passes straight to the longest waiting.
      clearTimeout(next.timer);
      next.admit({ admitted: true, release: this.releaser() });
    };
  }
}

export const BUSY = "The server is busy right now. Please try again in a few seconds.";

/** The answer to a shed render: a plain page, never cached, with the time to retry. */
export function busyResponse(): Response {
  return new Response(plainPage("Busy", BUSY), {
    status: 503,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) },
  });
}

type DocumentHandler = ServerBuild["entry"]["module"]["default"];

const wrapped = new WeakMap<ServerBuild, ServerBuild>();

/** `build` with its document render (the entry's handler) taking a slot of `admission` first, or answering 503. */
export function admittedBuild(build: ServerBuild, admission: Admission): ServerBuild {
  const known = wrapped.get(build);
  if (known) return known;
  const render = build.entry.module.default;
  const admitted: DocumentHandler = async (...args) => {
    const turn = await admission.enter();
    if (!turn.admitted) {
      const log = currentRequestScope()?.log;
      const line = `503 render shed: ${turn.reason}`;
      if (log) log.warn(admission.stats, line);
      else console.warn(line);
      return busyResponse();
    }
    try {
      // The entry buffers the whole page: the render is over when its response exists.
      return await render(...args);
    } finally {
      turn.release();
    }
  };
  const admittedOne = { ...build, entry: { ...build.entry, module: { ...build.entry.module, default: admitted } } };
  wrapped.set(build, admittedOne);
  return admittedOne;
}

import { TransportTimeoutError, type BackendAnswer, type BackendCall, type BackendTransport } from "./http-client.server";

/**
 * The embedded backends, called in this process (decision 0036): server.ts hands over a dispatcher that runs a call
 * through the same Express router the HTTP API serves (server/in-process-backends.ts), so the app's calls skip the
 * loopback connection, its HTTP parsing and the server's front middleware, and keep the same validation, envelope
 * and internal-token rules. The app never imports the backends: it only knows this function's shape.
 */
export type InProcessDispatch = (call: Omit<BackendCall, "timeoutMs">) => Promise<BackendAnswer>;

// server.ts and the Remix build each load their own copy of this module: one dispatcher for both, keyed globally.
const KEY = Symbol.for("spark-era.in-process-backends");
const holder = globalThis as typeof globalThis & { [KEY]?: InProcessDispatch };

/** server.ts: the embedded backends answer this process's calls in process (undefined: over loopback HTTP again). */
export function serveEmbeddedBackendsInProcess(dispatch: InProcessDispatch | undefined): void {
  holder[KEY] = dispatch;
}

/** The transport to the embedded backends in this process, when server.ts set one up. */
export function inProcessTransport(): BackendTransport | undefined {
  const dispatch = holder[KEY];
  if (!dispatch) return undefined;
  return ({ timeoutMs, ...call }) =>
    new Promise((resolve, reject) => {
      // The same deadline as over HTTP: the call gives up; the handler, like a server's after a hang-up, runs on.
      const deadline = setTimeout(() => reject(new TransportTimeoutError()), timeoutMs);
      dispatch(call).then(
        (answer) => {
          clearTimeout(deadline);
          resolve(answer);
        },
        (error: unknown) => {
          clearTimeout(deadline);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
}

import type { ServerBuild } from "@remix-run/node";
import type { Logger } from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { requestScope } from "../../app/services/request-scope.server";
import { Admission, type Admitted, admittedBuild, BUSY } from "../../server/render-admission";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** The release of an admitted turn; fails the test on a shed one. */
function released(turn: Admitted) {
  if (!turn.admitted) throw new Error(`shed: ${turn.reason}`);
  return turn.release;
}

/** Whether `promise` has settled once pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

describe("Admission", () => {
  it("admits up to its limit at once, then one waiting render per slot given back, first come first served", async () => {
    const admission = new Admission({ limit: 2, queue: 10, maxWaitMs: 1000 });
    const first = released(await admission.enter());
    const second = released(await admission.enter());
    const third = admission.enter();
    const fourth = admission.enter();
    expect(admission.stats).toEqual({ running: 2, waiting: 2 });
    expect(await settled(third)).toBe(false);

    first();
    expect(await settled(third)).toBe(true);
    expect(await settled(fourth)).toBe(false);
    expect(admission.stats).toEqual({ running: 2, waiting: 1 });

    second();
    const fourthRelease = released(await fourth);
    released(await third)();
    fourthRelease();
    expect(admission.stats).toEqual({ running: 0, waiting: 0 });
  });

  it("gives a slot back once, however often release is called", async () => {
    const admission = new Admission({ limit: 1, queue: 10, maxWaitMs: 1000 });
    const release = released(await admission.enter());
    release();
    release();
    expect(admission.stats.running).toBe(0);
    released(await admission.enter());
    expect(admission.stats.running).toBe(1);
  });

  it("sheds at once when the queue is full", async () => {
    const admission = new Admission({ limit: 1, queue: 1, maxWaitMs: 1000 });
    released(await admission.enter());
    void admission.enter();
    expect(await admission.enter()).toEqual({ admitted: false, reason: "queue full" });
    expect(admission.stats).toEqual({ running: 1, waiting: 1 });
  });

  it("sheds a render that waited its longest, and its place in the queue goes", async () => {
    vi.useFakeTimers();
    const admission = new Admission({ limit: 1, queue: 10, maxWaitMs: 1000 });
    const release = released(await admission.enter());
    const early = admission.enter();
    await vi.advanceTimersByTimeAsync(500);
    const late = admission.enter();
    await vi.advanceTimersByTimeAsync(500);
    expect(await early).toEqual({ admitted: false, reason: "waited too long" });
    expect(admission.stats).toEqual({ running: 1, waiting: 1 });

    release();
    released(await late)();
    await vi.advanceTimersByTimeAsync(1000);
    expect(admission.stats).toEqual({ running: 0, waiting: 0 });
  });
});

/** A build whose document render is `render`: only the entry matters here. */
function buildRendering(render: () => Promise<Response>): ServerBuild {
  return { routes: {}, entry: { module: { default: render, streamTimeout: 5000 } } } as unknown as ServerBuild;
}
const documentArgs = [new Request("http://localhost/marketplace/market"), 200, new Headers(), {}, {}] as unknown as Parameters<
  ServerBuild["entry"]["module"]["default"]
>;

describe("admittedBuild", () => {
  it("renders inside a slot and gives it back, whether the render answers or throws", async () => {
    const admission = new Admission({ limit: 1, queue: 0, maxWaitMs: 1000 });
    let runningDuringRender = 0;
    const build = admittedBuild(
      buildRendering(async () => {
        runningDuringRender = admission.stats.running;
        return new Response("page");
      }),
      admission,
    );
    expect(await (await build.entry.module.default(...documentArgs)).text()).toBe("page");
    expect(runningDuringRender).toBe(1);
    expect(admission.stats.running).toBe(0);

    const failing = admittedBuild(
      buildRendering(() => Promise.reject(new Error("render failed"))),
      admission,
    );
    await expect(failing.entry.module.default(...documentArgs)).rejects.toThrow("render failed");
    expect(admission.stats.running).toBe(0);
  });

  it("keeps the rest of the build, and wraps one build once", () => {
    const admission = new Admission({ limit: 1, queue: 0, maxWaitMs: 1000 });
    const original = buildRendering(async () => new Response("page"));
    const build = admittedBuild(original, admission);
    expect(build.entry.module.streamTimeout).toBe(5000);
    expect(build.routes).toBe(original.routes);
    expect(admittedBuild(original, admission)).toBe(build);
  });

  it("answers a shed render with a 503 page to retry, and one warning with the request's id", async () => {
    const admission = new Admission({ limit: 1, queue: 0, maxWaitMs: 1000 });
    released(await admission.enter());
    const render = vi.fn(async () => new Response("page"));
    const build = admittedBuild(buildRendering(render), admission);
    const warn = vi.fn();
    const log = { warn } as unknown as Logger;

    const response = await requestScope.run({ clientIp: "127.0.0.1", deadline: Date.now() + 1000, requestId: "r1", log }, () =>
      build.entry.module.default(...documentArgs),
    );
    expect(render).not.toHaveBeenCalled();
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(await response.text()).toContain(BUSY);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith({ running: 1, waiting: 0 }, "503 render shed: queue full");
  });
});

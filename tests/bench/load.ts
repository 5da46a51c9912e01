/** The benches' load: clients in a bounded closed loop, each sending its next request when the last one is answered. */

export interface Target {
  /** One server, or several taken in turn (a load balancer's round robin, without a proxy's own cost). */
  base: string | string[];
  paths: string[];
  headers?: Record<string, string>;
  /** The X-Page-Cache every answer must carry (null: none, the cache never saw it). */
  expect?: "hit" | null;
}

export interface Result {
  rate: number;
  requests: number;
  bytes: number;
  p95: number;
}

/** `concurrency` clients against `target` for `ms`; any answer but a 200 (or the wrong cache origin) throws. */
export async function closedLoop({ base, paths, headers, expect }: Target, ms: number, concurrency: number): Promise<Result> {
  const bases = Array.isArray(base) ? base : [base];
  const end = performance.now() + ms;
  const latencies: number[] = [];
  let bytes = 0;
  let next = 0;
  async function client() {
    while (performance.now() < end) {
      const n = next++;
      const url = `${bases[n % bases.length]}${paths[n % paths.length]}`;
      const started = performance.now();
      const response = await fetch(url, { redirect: "manual", headers });
      const body = await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
      latencies.push(performance.now() - started);
      bytes += body.byteLength;
      if (expect !== undefined && response.headers.get("x-page-cache") !== expect) {
        throw new Error(`${url}: X-Page-Cache ${response.headers.get("x-page-cache")}, expected ${expect}`);
      }
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, client));
  const elapsed = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return {
    rate: (latencies.length / elapsed) * 1000,
    requests: latencies.length,
    bytes,
    p95: latencies[Math.floor(latencies.length * 0.95)] ?? 0,
  };
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

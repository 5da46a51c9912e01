/** The benches' load: the market pages people open, and clients in a bounded closed loop, each sending its next request when the last one is answered. */

/** What people filter by: four to five filters and a sort each (the codec's canonical URLs). */
export const MARKET_PAGES = [
  "/marketplace/market?nftType=0&camp=1,2&rarity=0,1&level=1,8&currency=FIRE&sort=price-asc",
  "/marketplace/market?nftType=4&camp=0&rank=3,4&total=250,&sort=total-desc",
  "/marketplace/market?nftType=7&equipmentType=2,3&level=3,7&sort=views-desc",
  "/marketplace/market?nftType=2&pse=4,5&level=2,&currency=QUARK&pageSize=20",
];
/** Any cookie keeps a request away from the page cache: the page is rendered for it. */
export const UNCACHED = { Cookie: "bench=uncached" };

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

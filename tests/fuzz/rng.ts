/**
 * The fuzzer's seeded randomness and value generators. Every request is drawn from its own 32-bit seed, so
 * one printed seed replays one request exactly (`npm run fuzz -- --replay <seed>`).
 */
import { GAME_TOKEN_ID_BASE } from "~core/constants";

/** mulberry32: tiny, fast, and good enough to spread test inputs. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** One of the values, with probability proportional to its weight. */
  weighted<T>(entries: readonly (readonly [number, T])[]): T {
    let roll = this.next() * entries.reduce((sum, [weight]) => sum + weight, 0);
    for (const [weight, value] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return entries[entries.length - 1][1];
  }

  /** `count` distinct items of `items`, in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length) out.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0]);
    return out;
  }

  string(length: number, alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"): string {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
}

/** The seed of request `index` of a run seeded with `master` (a 32-bit hash of both). */
export function requestSeed(master: number, index: number): number {
  let h = (master ^ Math.imul(index + 1, 0x9e3779b9)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export type Gen = (r: Rng) => string;

/** Inputs that broke parsers somewhere once: empty, huge, numeric edges, encodings, injections, odd Unicode. */
export const EDGE_STRINGS: readonly string[] = [
  "",
  " ",
  "0",
  "-1",
  "-0",
  "1.5",
  "1e309",
  "-1e309",
  "NaN",
  "Infinity",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "[object Object]",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "%",
  "%ff",
  "%00",
  "%2e%2e%2f",
  "\u0000",
  "\u0007\u001b[31m",
  "\r\n",
  "\t",
  "../../../../etc/passwd",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  '"; drop table market_items; --',
  "${7*7}",
  "{{7*7}}",
  "\ud800",
  "\udfff\ud800",
  "\ufeff",
  "\u202e",
  "𝕏",
  "😀".repeat(20),
  "ﾟ･✿ヾ╲(｡◕‿◕｡)╱✿･ﾟ",
  "٠١٢",
  "９９",
  "0x",
  `0x${"f".repeat(64)}`,
  "9".repeat(80),
  "9007199254740993",
  "18446744073709551616",
  "115792089237316195423570985008687907853269984665640564039457584007913129639936",
  "1".repeat(500),
  "a".repeat(5000),
  "//evil.example",
  "/\\evil.example",
  "/.//evil.example",
  "/%2e//evil.example",
  "https://evil.example",
  "javascript:alert(1)",
  "data:text/html,<b>x</b>",
];

export function garbage(r: Rng): string {
  const kind = r.int(0, 9);
  if (kind < 6) return r.pick(EDGE_STRINGS);
  if (kind < 8) return r.string(r.int(1, 40), "abcXYZ019 -_.~!*'();:@&=+$,/?#[]%\"<>\\^`{|}");
  if (kind < 9) return Array.from({ length: r.int(1, 12) }, () => String.fromCodePoint(r.int(0x80, 0x2fff))).join("");
  return r.string(r.int(2000, 20_000));
}

/** A generator that gives a plausible value most of the time and garbage otherwise. */
export function mostly(valid: Gen, pGarbage = 0.3): Gen {
  return (r) => (r.chance(pGarbage) ? garbage(r) : valid(r));
}

export const oneOf =
  (...values: readonly string[]): Gen =>
  (r) =>
    r.pick(values);

export const digits =
  (maxLength: number): Gen =>
  (r) =>
    r.string(r.int(1, maxLength), "0123456789");

/** Mostly the seed's game ids (GAME_TOKEN_ID_BASE + n), some chain ids, some long digit strings. */
export const tokenId: Gen = mostly((r) =>
  r.chance(0.6) ? String((r.chance(0.8) ? GAME_TOKEN_ID_BASE : 0) + r.int(0, 4000)) : digits(78)(r),
);
export const nftType: Gen = mostly((r) => (r.chance(0.8) ? String(r.int(0, 8)) : r.pick(["9", "-1", "hero", "spaceship", "08", " 1"])));
export const address: Gen = mostly((r) =>
  r.weighted([
    [3, `0x${r.string(40, "0123456789abcdef")}`],
    [1, `0x${r.string(40, "0123456789abcdefABCDEF")}`],
    [1, "0x0000000000000000000000000000000000000000"],
    [1, `0x${r.string(r.int(0, 60), "0123456789abcdef")}`],
  ]),
);
/** Random addresses only: a demo account with a wrong password would lock it for the other tests. */
export const email: Gen = mostly((r) =>
  r.weighted([
    [4, `fz-${r.string(10)}@fuzz.test`],
    [1, `${r.string(300)}@fuzz.test`],
    [1, `FZ-${r.string(6).toUpperCase()}@Fuzz.Test `],
    [1, "no-at-sign.fuzz.test"],
  ]),
);
export const password: Gen = mostly((r) =>
  r.pick(["Fuzz-pass-1", "short", "a".repeat(19), "no spaces 1!", "密码密码密码1a", r.string(r.int(6, 18))]),
);
/** Display names (issue 42): some a fresh valid one, most refused by one rule or another. */
export const displayName: Gen = mostly((r) =>
  r.pick([`Fz ${r.string(8)}`, "ab", r.string(21), "admin", "Spark Era", "0xbeef", "me@fuzz.test", "Star  Lord", "Zoë", ""]),
);
export const code6: Gen = mostly((r) => r.pick([digits(6)(r).padStart(6, "0"), "000000", "12345", "1234567", "12345a"]));
export const hex = (bytes: number): Gen => mostly((r) => `0x${r.string(bytes * 2, "0123456789abcdef")}`);
export const currency: Gen = mostly(oneOf("FIRE", "QUARK", "USDT", "BNB", "fire", "ETH", ""));
export const amount: Gen = mostly((r) =>
  r.pick(["1", "0.5", "12.5", "0", "0.000000000000000001", "1000000000000", "1,5", "1.2.3", "-3", digits(30)(r)]),
);
export const wei: Gen = mostly((r) => r.pick(["1", "0", "1000000000000000000", digits(78)(r), "-1", "1.5"]));
export const isoTime: Gen = mostly((r) =>
  r.pick([new Date().toISOString(), "2020-01-01T00:00:00.000Z", "2999-01-01T00:00:00Z", "yesterday"]),
);
export const redirect: Gen = mostly(
  oneOf(
    "/home",
    "/marketplace/market?nftType=1",
    "/invite",
    "//evil.example",
    "/.//evil.example",
    "/%2e%2e//evil.example",
    "https://evil.example/x",
    "/\t/evil.example",
    `/${"x".repeat(3000)}`,
  ),
  0.2,
);

/** An EIP-4361 sign-in text with random domain, chain, nonce and times, sometimes cut short or with a field missing. */
export const signInText: Gen = mostly((r) => {
  const lines = [
    `${r.pick(["localhost", "127.0.0.1:3210", "evil.example", ""])} wants you to sign in with your Ethereum account:`,
    address(r),
    "",
    "Sign in.",
    "",
    `URI: ${r.pick(["http://localhost", "x"])}`,
    `Version: ${r.pick(["1", "2"])}`,
    `Chain ID: ${r.pick(["31337", "56", digits(30)(r)])}`,
    `Nonce: ${r.pick([r.string(32), "short", "a".repeat(32)])}`,
    `Issued At: ${isoTime(r)}`,
    `Expiration Time: ${isoTime(r)}`,
    `Not Before: ${isoTime(r)}`,
  ];
  if (r.chance(0.3)) lines.splice(r.int(0, lines.length - 1), 1);
  return lines.slice(0, r.chance(0.8) ? lines.length : r.int(1, lines.length)).join("\n");
});

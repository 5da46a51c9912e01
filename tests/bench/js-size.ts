/**
 * Gzipped JavaScript a page downloads: every module script and modulepreload of the server-rendered HTML,
 * plus what those modules import statically (Remix lists them all as modulepreload links).
 * Usage: tsx tests/bench/js-size.ts [baseUrl] [path...]
 */
import { gzipSync } from "node:zlib";

const [baseUrl = "http://127.0.0.1:3000", ...paths] = process.argv.slice(2);
const pages = paths.length ? paths : ["/home", "/marketplace/market", "/lootbox/18"];

export async function gzippedJs(url: string) {
  const html = await (await fetch(url)).text();
  const srcs = new Set<string>();
  for (const match of html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="([^"]+\.js)"/g)) srcs.add(match[1]);
  // The entry module imports the rest dynamically: follow `import` specifiers inside inline scripts too.
  for (const match of html.matchAll(/import\(?\s*["']([^"']+\.js)["']/g)) srcs.add(match[1]);
  let total = 0;
  for (const src of srcs) {
    const body = Buffer.from(await (await fetch(new URL(src, url))).arrayBuffer());
    total += gzipSync(body, { level: 9 }).length;
  }
  return { files: srcs.size, bytes: total };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const path of pages) {
    const { files, bytes } = await gzippedJs(baseUrl + path);
    console.log(`${path}: ${(bytes / 1024).toFixed(1)} KB gzipped JS in ${files} files`);
  }
}

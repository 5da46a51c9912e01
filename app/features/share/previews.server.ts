/**
 * The preview image routes (issue 42): /og/item/{nftType}/{tokenId}.png and /og/site.png. A card is rendered once
 * per distinct SVG and kept in a byte-bounded LRU; browsers and crawlers revalidate by ETag (the SVG's digest).
 */
import fs from "node:fs/promises";
import path from "node:path";
import { imageFor } from "~core/item-catalog";
import { backendProblem, publicApis } from "~/services/apis.server";
import { typeLabel } from "~/features/market/market-views.server";
import { gradeLabel, gradeName } from "~/features/market/listing";
import { readTokenRef } from "~/features/market/token-ref";
import { itemCardSvg, renderPng, siteCardSvg, svgDigest } from "./og-image.server";

/** Rendered PNGs kept, in bytes (a card is 50–150 KB): a crawler's sweep of the market stays cheap. */
const CACHE_BYTES = 32 * 1024 * 1024;
const pngs = new Map<string, Uint8Array<ArrayBuffer>>();
let cachedBytes = 0;

function cachedPng(key: string, svg: string): Uint8Array<ArrayBuffer> {
  const hit = pngs.get(key);
  if (hit) {
    // Most recently used last: Map keeps insertion order.
    pngs.delete(key);
    pngs.set(key, hit);
    return hit;
  }
  const png = renderPng(svg);
  pngs.set(key, png);
  cachedBytes += png.byteLength;
  for (const [oldKey, old] of pngs) {
    if (cachedBytes <= CACHE_BYTES) break;
    pngs.delete(oldKey);
    cachedBytes -= old.byteLength;
  }
  return png;
}

/** A card as a PNG answer; a 304 when the client holds this very card. */
function pngResponse(request: Request, svg: string, maxAgeSeconds: number): Response {
  const digest = svgDigest(svg);
  const headers = { "Content-Type": "image/png", "Cache-Control": `public, max-age=${maxAgeSeconds}`, ETag: `"${digest}"` };
  const held = request.headers
    .get("If-None-Match")
    ?.split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""));
  if (held?.includes(headers.ETag)) return new Response(null, { status: 304, headers });
  return new Response(cachedPng(digest, svg), { headers });
}

const notFound = () => new Response("No such item.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/** Our art files, read once each (public/images, a fixed set). */
const artFiles = new Map<string, Promise<string>>();
function readArt(sitePath: string): Promise<string> {
  let art = artFiles.get(sitePath);
  if (!art) {
    art = fs.readFile(path.join("public", sitePath), "utf8");
    artFiles.set(sitePath, art);
  }
  return art;
}

/** The item's own art when it is one of our files; else its type's art (an outside image is not fetched). */
function artPath(image: string, nftType: number): string {
  const own = new URL(image, "http://site").pathname;
  return /^\/images\/nft\/[a-z]+-[a-z]+\.svg$/.test(own) ? own : imageFor(nftType, {});
}

/** An item's card, `file` being "{tokenId}.png"; 404 for anything that names no item. */
export async function itemPreview(request: Request, nftType: string | undefined, file: string | undefined): Promise<Response> {
  const tokenId = /^(\d{1,78})\.png$/.exec(file ?? "")?.[1];
  const { ref } = readTokenRef(new URLSearchParams({ nftType: nftType ?? "", tokenId: tokenId ?? "" }));
  if (!ref) return notFound();
  let detail;
  try {
    detail = await publicApis().market.tokenDetail(ref);
  } catch (error) {
    const failure = backendProblem(error);
    // The market refuses what it does not hold (404) or cannot read (400): either way no item.
    if (failure.status < 500) return notFound();
    return new Response(failure.message, {
      status: failure.status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "60" },
    });
  }
  const grade = gradeLabel(detail);
  const detailText = `${typeLabel(detail.nftType)}${grade ? ` · ${gradeName(detail.nftType)}: ${grade}` : ""}`;
  const art = await readArt(artPath(detail.image, detail.nftType)).catch(() => readArt(imageFor(detail.nftType, {})));
  return pngResponse(request, itemCardSvg({ art, name: detail.name, detail: detailText }), 3600);
}

const SITE_TAGLINE = "The blockchain space game and its NFT marketplace on BNB Smart Chain.";

export async function sitePreview(request: Request): Promise<Response> {
  const art = await readArt("/images/art/hero.svg");
  return pngResponse(request, siteCardSvg({ art, tagline: SITE_TAGLINE }), 86_400);
}

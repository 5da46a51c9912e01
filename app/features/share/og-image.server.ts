/**
 * Link-preview images (issue 42): 1200×630 PNGs drawn from our SVG art with @resvg/resvg-js, since social networks
 * do not show SVG. Text is set in DejaVu Sans loaded from its files, never the system's fonts, so a card renders the
 * same on every machine.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { Resvg } from "@resvg/resvg-js";
import { escapeXml } from "~core/xml";

export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;

/** Debian's fonts-dejavu-core (.ci/run installs it; the README and docs/deploy.md ask it of a server). */
const FONT_DIR = "/usr/share/fonts/truetype/dejavu";
const FONT = {
  fontFiles: ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"].map((file) => path.join(FONT_DIR, file)),
  loadSystemFonts: false,
  defaultFontFamily: "DejaVu Sans",
  sansSerifFamily: "DejaVu Sans",
};

/** The card as PNG bytes (a plain Uint8Array, what a Response body takes). */
export function renderPng(svg: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(new Resvg(svg, { fitTo: { mode: "width", value: OG_WIDTH }, font: FONT }).render().asPng());
}

/** A card's SVG as its cache key and ETag: the same SVG always renders the same PNG. */
export function svgDigest(svg: string): string {
  return createHash("sha256").update(svg).digest("base64url").slice(0, 32);
}

/** Our art file placed in a box of the card: its root <svg> becomes a nested one (its viewBox kept). */
export function placeArt(artSvg: string, box: { x: number; y: number; width: number; height: number }): string {
  const open = /^<svg\b[^>]*>/.exec(artSvg.trim());
  if (!open) throw new Error("not an SVG document");
  const viewBox = /\bviewBox="([^"]+)"/.exec(open[0])?.[1] ?? "0 0 100 100";
  const inner = artSvg.slice(artSvg.indexOf(open[0]) + open[0].length, artSvg.lastIndexOf("</svg>"));
  return `<svg x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" viewBox="${viewBox}" preserveAspectRatio="xMidYMid slice">${inner}</svg>`;
}

/** Words on lines of at most `width` characters, at most `lines` of them, the last cut with "…" when more is left. */
export function wrapText(text: string, width: number, lines: number): string[] {
  const out: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = out.length - 1;
    if (last >= 0 && out[last]!.length + 1 + word.length <= width) out[last] += ` ${word}`;
    else out.push(word.length > width ? `${word.slice(0, width - 1)}…` : word);
  }
  if (out.length <= lines) return out;
  const kept = out.slice(0, lines);
  kept[lines - 1] = `${kept[lines - 1]!.slice(0, width - 1).trimEnd()}…`;
  return kept;
}

const BACKDROP =
  `<defs><linearGradient id="og-sky" x2="0" y2="1"><stop offset="0" stop-color="#070a16"/><stop offset="1" stop-color="#151b36"/></linearGradient></defs>` +
  `<rect width="${OG_WIDTH}" height="${OG_HEIGHT}" fill="url(#og-sky)"/>`;

function card(body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${OG_WIDTH}" height="${OG_HEIGHT}" viewBox="0 0 ${OG_WIDTH} ${OG_HEIGHT}">${BACKDROP}${body}</svg>`;
}

function textLines(
  lines: string[],
  { x, y, size, step, fill, bold }: { x: number; y: number; size: number; step: number; fill: string; bold?: boolean },
) {
  const weight = bold ? ` font-weight="700"` : "";
  return lines
    .map(
      (line, i) =>
        `<text x="${x}" y="${y + i * step}" font-family="DejaVu Sans" font-size="${size}"${weight} fill="${fill}">${escapeXml(line)}</text>`,
    )
    .join("");
}

/** An item's card: its art on the left, its name, type and grade on the right, the site's name below. */
export function itemCardSvg({ art, name, detail }: { art: string; name: string; detail: string }): string {
  // About 15 bold characters fill the 540 px beside the art at 50 px (no text measuring here).
  const nameLines = wrapText(name, 15, 3);
  const detailY = 230 + nameLines.length * 62 + 10;
  return card(
    placeArt(art, { x: 60, y: 65, width: 500, height: 500 }) +
      textLines(["SPARK ERA MARKETPLACE"], { x: 620, y: 150, size: 26, step: 0, fill: "#ffbf3f", bold: true }) +
      textLines(nameLines, { x: 620, y: 230, size: 50, step: 62, fill: "#ffffff", bold: true }) +
      textLines(wrapText(detail, 30, 2), { x: 620, y: detailY, size: 32, step: 44, fill: "#a9b8ff" }),
  );
}

/** The site's card for pages without their own: the home page's hero art under the site's name. */
export function siteCardSvg({ art, tagline }: { art: string; tagline: string }): string {
  return card(
    placeArt(art, { x: 0, y: 0, width: OG_WIDTH, height: OG_HEIGHT }) +
      `<rect y="430" width="${OG_WIDTH}" height="200" fill="#070a16" fill-opacity=".75"/>` +
      textLines(["Spark Era"], { x: 60, y: 520, size: 72, step: 0, fill: "#ffffff", bold: true }) +
      textLines(wrapText(tagline, 70, 1), { x: 60, y: 580, size: 28, step: 0, fill: "#a9b8ff" }),
  );
}

/**
 * Writes our own item artwork: one small SVG per NFT type and grade, public/images/nft/<type>-<grade>.svg
 * (grade: common, rare, epic, legend — see backend/market/shared/catalog.ts for how an item maps to one).
 *   npx tsx scripts/make-nft-images.ts
 */
import fs from "node:fs";
import path from "node:path";
import { GRADE_ATTRIBUTES, NFT_TYPES, RARITIES, type NftTypeCode } from "~core/nft";
import { RARITY_SLUGS } from "../backend/market/shared/catalog";

/** Per grade: background from/to, accent, label. */
const PALETTES = [
  { from: "#3b4252", to: "#1c2029", accent: "#c8d0dc" },
  { from: "#1d4f91", to: "#0c1b36", accent: "#6cb8ff" },
  { from: "#5b2a86", to: "#1e0d33", accent: "#d18cff" },
  { from: "#8a5a00", to: "#2e1a00", accent: "#ffd36b" },
] as const;

/** One motif per type, drawn in a 100×100 box centred on (50, 46), in the accent colour `a`. */
const MOTIFS: Record<string, (a: string) => string> = {
  card: (a) =>
    `<rect x="28" y="18" width="44" height="58" rx="5" fill="none" stroke="${a}" stroke-width="3"/>` +
    `<circle cx="50" cy="38" r="8" fill="${a}"/><path d="M36 66c2-10 8-15 14-15s12 5 14 15z" fill="${a}"/>`,
  halloween: (a) =>
    `<ellipse cx="50" cy="52" rx="24" ry="20" fill="${a}"/><ellipse cx="50" cy="52" rx="9" ry="20" fill="none" stroke="#0006" stroke-width="2"/>` +
    `<path d="M50 32c0-6 3-9 7-10" stroke="${a}" stroke-width="4" fill="none"/><path d="M40 48l5 4-5 3zM60 48l-5 4 5 3z" fill="#0008"/>`,
  pse: (a) =>
    `<rect x="34" y="22" width="32" height="52" rx="6" fill="none" stroke="${a}" stroke-width="3"/><rect x="44" y="16" width="12" height="6" fill="${a}"/>` +
    `<path d="M53 30l-11 19h8l-3 17 12-21h-8z" fill="${a}"/>`,
  egse: (a) =>
    `<path d="M50 20l24 14v26L50 74 26 60V34z" fill="none" stroke="${a}" stroke-width="3"/>` +
    `<circle cx="50" cy="47" r="11" fill="${a}"/><circle cx="50" cy="47" r="4" fill="#0007"/>`,
  spaceship: (a) =>
    `<path d="M50 16l9 26 17 14-17 2-9 14-9-14-17-2 17-14z" fill="${a}"/>` +
    `<circle cx="50" cy="40" r="5" fill="#0007"/><path d="M44 74l6 8 6-8z" fill="#ff8a3d"/>`,
  egg: (a) =>
    `<path d="M50 18c14 0 24 22 24 36s-11 22-24 22-24-8-24-22 10-36 24-36z" fill="${a}"/>` +
    `<circle cx="42" cy="44" r="4" fill="#0005"/><circle cx="57" cy="56" r="5" fill="#0005"/><circle cx="46" cy="64" r="3" fill="#0005"/>`,
  lootbox: (a) =>
    `<rect x="24" y="40" width="52" height="34" rx="3" fill="${a}"/><rect x="20" y="30" width="60" height="12" rx="3" fill="${a}"/>` +
    `<rect x="46" y="30" width="8" height="44" fill="#0006"/><path d="M50 30c-6-10-16-8-12 0M50 30c6-10 16-8 12 0" stroke="${a}" stroke-width="3" fill="none"/>`,
  equipment: (a) =>
    `<path d="M50 18l24 8v18c0 16-10 26-24 32-14-6-24-16-24-32V26z" fill="none" stroke="${a}" stroke-width="3"/>` +
    `<path d="M50 28l14 5v11c0 10-6 16-14 20-8-4-14-10-14-20V33z" fill="${a}"/>`,
  material: (a) =>
    `<path d="M38 30l12-12 12 12-4 30h-16z" fill="${a}"/><path d="M26 50l8-8 8 8-2 20h-12z" fill="${a}" opacity=".7"/>` +
    `<path d="M58 48l8-8 8 8-2 22h-12z" fill="${a}" opacity=".8"/><path d="M50 18v42" stroke="#0004" stroke-width="2"/>`,
};

/** The art's caption: the type, and the rarity only for the types that have one (cards, Halloween items). */
function artLabel(code: NftTypeCode, grade: number): string {
  const type = NFT_TYPES[code].toUpperCase();
  return GRADE_ATTRIBUTES[code] === "rarity" ? `${type} · ${RARITIES[grade as keyof typeof RARITIES].toUpperCase()}` : type;
}

function nftSvg(code: NftTypeCode, grade: number): string {
  const type = NFT_TYPES[code];
  const { from, to, accent } = PALETTES[grade];
  const label = artLabel(code, grade);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" role="img" aria-label="${label}">`,
    `<defs><radialGradient id="g" cx=".5" cy=".4" r=".75"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></radialGradient></defs>`,
    `<rect width="100" height="100" rx="10" fill="url(#g)"/>`,
    `<rect x="2" y="2" width="96" height="96" rx="9" fill="none" stroke="${accent}" stroke-opacity=".5" stroke-width="${grade + 1}"/>`,
    MOTIFS[type](accent),
    `<text x="50" y="93" font-family="sans-serif" font-size="6.5" font-weight="700" text-anchor="middle" fill="${accent}">${label}</text>`,
    `</svg>\n`,
  ].join("");
}

function main() {
  const dir = path.resolve("public/images/nft");
  fs.mkdirSync(dir, { recursive: true });
  let largest = 0;
  for (const [code, type] of Object.entries(NFT_TYPES)) {
    RARITY_SLUGS.forEach((slug, grade) => {
      const svg = nftSvg(Number(code) as NftTypeCode, grade);
      largest = Math.max(largest, svg.length);
      fs.writeFileSync(path.join(dir, `${type}-${slug}.svg`), svg);
    });
  }
  console.log(`wrote ${Object.keys(NFT_TYPES).length * RARITY_SLUGS.length} SVGs to ${dir}, largest ${largest} bytes`);
}

main();

/**
 * Writes our own page art: one SVG per loot box type of the catalogue, public/images/art/box-<typeBox>.svg, and
 * the /home hero, public/images/art/hero.svg. Deterministic (seeded stars), so a rerun changes nothing.
 *   npx tsx scripts/make-art.ts
 */
import fs from "node:fs";
import path from "node:path";
import { BOX_CATALOGUE } from "~core/boxes";

/** Every file stays under this ("a few KB"); the e2e art spec checks 8 KB. */
const MAX_BYTES = 6_000;

interface BoxLook {
  /** Lit top face, left face, shaded right face, band and lock, glow. */
  top: string;
  left: string;
  right: string;
  band: string;
  glow: string;
  /** Tile background, centre and edge. */
  bg: readonly [string, string];
  /** Sparkles around the box: more for a higher tier. */
  sparkles: number;
  /** Drawn behind the box. */
  backdrop?: (l: BoxLook) => string;
  /** Drawn flat on the box's left face, in a 13-radius disc, instead of the lock. */
  emblem?: (l: BoxLook) => string;
}

/** A small starship pointing right, nose at (30, 0), in the given colour. */
const ship = (c: string) =>
  `<path d="M-14 0l10-5h22l12 5-12 5H-4z" fill="${c}"/><path d="M0-4l8-12h6L12-4zM0 4l8 12h6L12 4z" fill="${c}"/>` +
  `<path d="M16-2h6l2 2-2 2h-6z" fill="#0008"/><path d="M-14-3l-9 3 9 3z" fill="#ff8a3d"/>`;

/** A spiral galaxy seen at an angle, centred on (0, 0): a glowing core and two arms, the second the first turned 180°. */
function galaxy(c: string, r: number): string {
  const k = (...ks: number[]) => ks.map((v) => +(v * r).toFixed(1)).join(" ");
  const arm = `d="M0 0C${k(0.3, -0.5, 0.9, -0.5, 0.95, 0.1)}S${k(0.4, 0.8, -0.1, 0.7)}" fill="none" stroke="${c}" stroke-width="${k(0.1)}" stroke-linecap="round"`;
  return (
    `<g transform="rotate(-24) scale(1 .42)" opacity=".9"><circle r="${r}" fill="url(#gx)"/>` +
    `<path ${arm}/><path ${arm} transform="rotate(180)"/><circle r="${k(0.12)}" fill="#fff"/></g>`
  );
}

/** Per catalogue type: colour by tier (steel, blue, purple, gold), a ship on the spaceship box, a galaxy on V3-Galaxy. */
const LOOKS: Record<number, BoxLook> = {
  4: { top: "#aab4c5", left: "#76819a", right: "#525b70", band: "#dfe5ee", glow: "#8fa3c4", bg: ["#27303f", "#0d1118"], sparkles: 0 },
  5: { top: "#6aaef5", left: "#3476c8", right: "#214f8f", band: "#cbe6ff", glow: "#4aa3ff", bg: ["#1a3966", "#0a1426"], sparkles: 1 },
  6: { top: "#c18cf5", left: "#8448c9", right: "#5a2d92", band: "#f3dcff", glow: "#c27bff", bg: ["#3f1e66", "#130824"], sparkles: 2 },
  7: {
    top: "#ffd978",
    left: "#d9a126",
    right: "#a3700e",
    band: "#fff4cc",
    glow: "#ffc640",
    bg: ["#5a3c06", "#1c1202"],
    sparkles: 3,
    // Rays behind the box: the top tier.
    backdrop: (l) =>
      `<g transform="translate(80 84)" fill="${l.glow}" opacity=".22">` +
      [0, 45, 90, 135].map((a) => `<path d="M-6-76h12L2 76h-4z" transform="rotate(${a})"/>`).join("") +
      `</g>`,
  },
  17: {
    top: "#ffb27a",
    left: "#e0702a",
    right: "#a84c15",
    band: "#ffe3c9",
    glow: "#ff8a3d",
    bg: ["#3a2a4a", "#0c0a18"],
    sparkles: 2,
    backdrop: (l) => `<g transform="translate(46 34) rotate(-18)">${ship(l.band)}</g>`,
    emblem: (l) => `<g transform="scale(.62)">${ship(l.band)}</g>`,
  },
  18: {
    top: "#7ff0dc",
    left: "#2fb8a2",
    right: "#1d7f70",
    band: "#d9fff8",
    glow: "#4fe0c8",
    bg: ["#123a44", "#050f16"],
    sparkles: 2,
    backdrop: (l) => `<g transform="translate(80 40)">${galaxy(l.glow, 58)}</g>`,
    emblem: (l) => `<g transform="scale(.9)">${galaxy(l.band, 12)}</g>`,
  },
};

/** Mulberry32: a tiny seeded PRNG, so the stars stay put between runs. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Stars as one path of zero-length round-capped strokes: far smaller than one circle each. */
function stars(rand: () => number, count: number, w: number, h: number, size: number, opacity: number): string {
  let d = "";
  for (let i = 0; i < count; i++) d += `M${Math.round(rand() * w)} ${Math.round(rand() * h)}h0`;
  return `<path d="${d}" stroke="#fff" stroke-width="${size}" stroke-linecap="round" opacity="${opacity}"/>`;
}

/** A four-pointed sparkle centred on (x, y). */
function sparkle(x: number, y: number, r: number, c: string): string {
  const [p, q] = [0.15, 0.85].map((k) => +(k * r).toFixed(1));
  return `<path d="M${x} ${y - r}q${p} ${q} ${r} ${r}q-${q} ${p}-${r} ${r}q-${p}-${q}-${r}-${r}q${q}-${p} ${r}-${r}z" fill="${c}"/>`;
}

/**
 * An isometric crate in a 160×160 tile: top face T(80,46) R(124,68) B(80,90) L(36,68), 46 deep, a lid seam, two
 * bands crossing over the top and a lock (or the type's emblem) on the left face.
 */
function boxSvg(typeBox: number, look: BoxLook): string {
  const rand = random(typeBox * 7919);
  const { top, left, right, band, glow, bg } = look;
  const edge = `stroke="#0007" stroke-width="1.5" stroke-linejoin="round"`;
  // The left face is sheared +0.5 in y per x, the right −0.5: flat 2-D motifs are drawn through these matrices.
  const onLeft = (x: number, y: number) => `matrix(1 .5 0 1 ${x} ${y})`;
  const sparkles = [
    [30, 34, 7],
    [134, 40, 6],
    [128, 130, 5],
  ]
    .slice(0, look.sparkles)
    .map(([x, y, r]) => sparkle(x, y, r, band))
    .join("");
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 160 160">`,
    `<defs><radialGradient id="bg" cx=".5" cy=".45" r=".7"><stop offset="0" stop-color="${bg[0]}"/><stop offset="1" stop-color="${bg[1]}"/></radialGradient>`,
    `<radialGradient id="gl"><stop offset="0" stop-color="${glow}" stop-opacity=".7"/><stop offset="1" stop-color="${glow}" stop-opacity="0"/></radialGradient>`,
    `<radialGradient id="gx"><stop offset="0" stop-color="#fff"/><stop offset=".25" stop-color="${glow}" stop-opacity=".8"/><stop offset="1" stop-color="${glow}" stop-opacity="0"/></radialGradient></defs>`,
    `<rect width="160" height="160" rx="14" fill="url(#bg)"/>`,
    stars(rand, 14, 160, 160, 1.6, 0.7),
    look.backdrop?.(look) ?? "",
    `<ellipse cx="80" cy="132" rx="60" ry="18" fill="url(#gl)"/>`,
    // Faces: left, right, top.
    `<path d="M36 68l44 22v46l-44-22z" fill="${left}" ${edge}/>`,
    `<path d="M124 68l-44 22v46l44-22z" fill="${right}" ${edge}/>`,
    `<path d="M80 46l44 22-44 22-44-22z" fill="${top}" ${edge}/>`,
    // Lid seam 12 below the top edges.
    `<path d="M36 80l44 22 44-22" fill="none" stroke="#0006" stroke-width="2"/>`,
    // Bands: over the top both ways and down the middle of each side face.
    `<path d="M54 77l8 4 44-22-8-4zM98 81l8-4-44-22-8 4z" fill="${band}" opacity=".85"/>`,
    `<path d="M98 81l8-4v46l-8 4z" fill="${band}" opacity=".55"/>`,
    look.emblem
      ? `<path d="M54 77l8 4v46l-8-4z" fill="${band}" opacity=".75"/><g transform="${onLeft(58, 102)}"><circle r="13" fill="${right}" stroke="${band}" stroke-width="2"/>${look.emblem(look)}</g>`
      : `<path d="M54 77l8 4v46l-8-4z" fill="${band}" opacity=".75"/><g transform="${onLeft(58, 100)}"><rect x="-7" y="-4" width="14" height="14" rx="2" fill="${band}" ${edge}/><path d="M-4-4v-4a4 4 0 0 1 8 0v4" fill="none" stroke="${band}" stroke-width="2.5"/><circle cy="3" r="2" fill="#0008"/></g>`,
    sparkles,
    `</svg>\n`,
  ].join("");
}

/** The /home hero, 640×360: a nebula, a ringed planet, a moon and a starship leaving a trail. */
function heroSvg(): string {
  const rand = random(2024);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360">`,
    `<defs>`,
    `<linearGradient id="sky" x2="0" y2="1"><stop offset="0" stop-color="#070a16"/><stop offset="1" stop-color="#151b36"/></linearGradient>`,
    `<radialGradient id="n1"><stop offset="0" stop-color="#7f93ff" stop-opacity=".45"/><stop offset="1" stop-color="#5b6cf0" stop-opacity="0"/></radialGradient>`,
    `<radialGradient id="n2"><stop offset="0" stop-color="#c27bff" stop-opacity=".35"/><stop offset="1" stop-color="#c27bff" stop-opacity="0"/></radialGradient>`,
    `<radialGradient id="pl" cx=".35" cy=".3" r=".8"><stop offset="0" stop-color="#ffd27a"/><stop offset=".55" stop-color="#d4860c"/><stop offset="1" stop-color="#3a1d02"/></radialGradient>`,
    `<radialGradient id="mo" cx=".35" cy=".3" r=".8"><stop offset="0" stop-color="#c8d0dc"/><stop offset="1" stop-color="#33406e"/></radialGradient>`,
    `<linearGradient id="tr" x1="1" x2="0"><stop offset="0" stop-color="#ffbf3f" stop-opacity=".9"/><stop offset="1" stop-color="#ffbf3f" stop-opacity="0"/></linearGradient>`,
    `<linearGradient id="hull" x2="0" y2="1"><stop offset="0" stop-color="#e6ebf5"/><stop offset="1" stop-color="#7f8aa6"/></linearGradient>`,
    `<clipPath id="front"><rect x="300" y="262" width="340" height="98"/></clipPath>`,
    `</defs>`,
    `<rect width="640" height="360" fill="url(#sky)"/>`,
    `<ellipse cx="170" cy="110" rx="220" ry="120" fill="url(#n1)"/>`,
    `<ellipse cx="380" cy="70" rx="200" ry="90" fill="url(#n2)"/>`,
    stars(rand, 70, 640, 360, 1.4, 0.55),
    stars(rand, 18, 640, 360, 2.4, 0.9),
    // The planet between the two halves of its ring, so the ring passes behind and then in front.
    `<ellipse cx="490" cy="262" rx="170" ry="34" fill="none" stroke="#ffd27a" stroke-width="6" opacity=".45" transform="rotate(-12 490 262)"/>`,
    `<circle cx="490" cy="262" r="108" fill="url(#pl)"/>`,
    `<path d="M400 230c40 14 130 16 186-6M392 270c50 16 150 14 200-10" fill="none" stroke="#3a1d02" stroke-width="5" opacity=".25"/>`,
    `<ellipse cx="490" cy="262" rx="170" ry="34" fill="none" stroke="#ffd27a" stroke-width="6" opacity=".8" transform="rotate(-12 490 262)" clip-path="url(#front)"/>`,
    `<circle cx="560" cy="70" r="22" fill="url(#mo)"/>`,
    // The starship, heading up and right, its trail behind it.
    `<g transform="translate(250 190) rotate(-16)">`,
    `<path d="M-230 -3h200v6h-200z" fill="url(#tr)"/>`,
    `<path d="M-36 -9l-14 9 14 9z" fill="#ff8a3d"/><path d="M-34 -5l-8 5 8 5z" fill="#fff4cc"/>`,
    `<path d="M-30-12h70c26 0 44 6 58 12-14 6-32 12-58 12h-70z" fill="url(#hull)"/>`,
    `<path d="M-10-12l22-30h18l-8 30zM-10 12l22 30h18l-8-30z" fill="#a9b8ff"/>`,
    `<path d="M-10-12l22-30h6l-16 30zM-10 12l22 30h6l-16-30z" fill="#5b6cf0"/>`,
    `<path d="M56-6h22c8 0 14 3 18 6-4 3-10 6-18 6H56z" fill="#212a4d"/>`,
    `<path d="M-22 0h60" stroke="#5b6cf0" stroke-width="2"/>`,
    `</g>`,
    `</svg>\n`,
  ].join("");
}

function write(dir: string, name: string, svg: string): void {
  const bytes = Buffer.byteLength(svg);
  if (bytes > MAX_BYTES) throw new Error(`${name} is ${bytes} bytes, over ${MAX_BYTES}`);
  fs.writeFileSync(path.join(dir, name), svg);
  console.log(`${name} ${bytes} bytes`);
}

function main() {
  const dir = path.resolve("public/images/art");
  fs.mkdirSync(dir, { recursive: true });
  for (const { typeBox } of BOX_CATALOGUE) {
    const look = LOOKS[typeBox];
    if (!look) throw new Error(`box type ${typeBox} has no look in scripts/make-art.ts`);
    write(dir, `box-${typeBox}.svg`, boxSvg(typeBox, look));
  }
  write(dir, "hero.svg", heroSvg());
}

main();

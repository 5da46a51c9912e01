/** The item art (scripts/make-nft-images.ts): only items that have a rarity say one (issue 23: "PSE · COMMON"). */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { GRADE_ATTRIBUTES, NFT_TYPES, RARITIES, type NftTypeCode } from "~core/nft";
import { RARITY_SLUGS } from "../../backend/market/shared/catalog";

/** The caption and the accessible name of one art file. */
function words(type: string, slug: string): string[] {
  const svg = fs.readFileSync(`public/images/nft/${type}-${slug}.svg`, "utf8");
  return [svg.match(/aria-label="([^"]*)"/)![1], svg.match(/<text[^>]*>([^<]*)<\/text>/)![1]];
}

describe("item art captions", () => {
  for (const [code, type] of Object.entries(NFT_TYPES)) {
    const hasRarity = GRADE_ATTRIBUTES[Number(code) as NftTypeCode] === "rarity";
    it(`${type}: ${hasRarity ? "its rarity" : "no rarity, since it has none"}`, () => {
      RARITY_SLUGS.forEach((slug, grade) => {
        for (const text of words(type, slug)) {
          if (hasRarity) expect(text).toBe(`${type.toUpperCase()} · ${RARITIES[grade as keyof typeof RARITIES].toUpperCase()}`);
          else expect(text).toBe(type.toUpperCase());
        }
      });
    });
  }
});

import { describe, expect, it } from "vitest";
import { findPool, STAKE_POOLS } from "~core/pools";

describe("stake pool catalogue", () => {
  it("has the three pools of product §3", () => {
    expect(STAKE_POOLS.map((pool) => [pool.id, pool.title])).toEqual([
      [1, "Standard Pool"],
      [2, "Epic Pool"],
      [3, "Legendary Pool"],
    ]);
  });

  it("finds pools only by a plain numeric id", () => {
    expect(findPool("2")?.title).toBe("Epic Pool");
    for (const bad of [undefined, "", "4", "0", "abc", "1e0", " 1", "01x"]) expect(findPool(bad)).toBeUndefined();
  });
});

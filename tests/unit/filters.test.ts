import { describe, expect, it } from "vitest";

import { RESULT_WINDOW, isCanonical } from "~/features/market/filters/shared";
import { filterChips, marketFormValues } from "~/features/market/filters/chips";
import { marketHref, parseMarketFilter, serializeMarketFilter, toMarketQuery, withType } from "~/features/market/filters/market";

const parse = (search: string) => parseMarketFilter(new URLSearchParams(search));
const canonical = (search: string) => serializeMarketFilter(parse(search).filter);

describe("market filter: canonical URLs", () => {
  it("reads the garbage URL of the issue as defaults plus a normalised range, with notices", () => {
    const { filter, notices } = parse("camp=zz&level=9,1&page=-3");
    expect(filter.lists).toEqual({});
    expect(filter.ranges).toEqual({ level: { min: 1, max: 9 } });
    expect(filter.page).toBe(1);
    expect(serializeMarketFilter(filter)).toBe("level=1,9");
    expect(notices).toHaveLength(2);
    expect(notices[0]).toMatch(/Camp: “zz”/);
    expect(notices[1]).toMatch(/Page: “-3” is not a page number/);
  });

  it("turns a form submission (repeated keys, empty inputs) into the canonical query", () => {
    const form = "nftType=0&camp=2&camp=1&rarity=0&level=&level=5&currency=&price=&price=&sort=price-asc&pageSize=10";
    expect(canonical(form)).toBe("nftType=0&camp=1,2&rarity=0&level=,5&sort=price-asc");
    expect(parse(form).notices).toEqual([]);
  });

  it("writes keys in one fixed order whatever order they came in", () => {
    expect(canonical("page=2&sort=views-desc&level=3,4&camp=3,0,3&nftType=4")).toBe("nftType=4&camp=0,3&level=3,4&sort=views-desc&page=2");
  });

  it("drops defaults", () => {
    expect(canonical("sort=listed-desc&pageSize=10&page=1")).toBe("");
    expect(canonical("sort=listed")).toBe("");
    expect(marketHref(parse("page=1").filter)).toBe("/marketplace/market");
  });

  it("normalises ranges: swapped bounds, one-sided bounds, an exact value", () => {
    expect(canonical("level=9,1")).toBe("level=1,9");
    expect(canonical("level=3,")).toBe("level=3,");
    expect(canonical("level=,3")).toBe("level=,3");
    expect(canonical("level=5,5")).toBe("level=5");
    expect(canonical("level=7&level=2")).toBe("level=2,7");
    expect(canonical("level=,")).toBe("");
  });

  it("reads prices as decimal token amounts and keeps them in wei", () => {
    const { filter } = parse("currency=fire&price=12.50,.5");
    expect(filter.price).toEqual({ min: 500_000_000_000_000_000n, max: 12_500_000_000_000_000_000n });
    expect(serializeMarketFilter(filter)).toBe("currency=FIRE&price=0.5,12.5");
    expect(toMarketQuery(filter)).toMatchObject({
      min: { price: "500000000000000000" },
      max: { price: "12500000000000000000" },
      currency: "FIRE",
    });
  });

  it("drops invalid values with a notice, keeping the valid ones", () => {
    const { filter, notices } = parse("nftType=0&camp=1,x,9&price=1e5&currency=DOGE&pageSize=37&sort=cheapest&foo=bar");
    expect(serializeMarketFilter(filter)).toBe("nftType=0&camp=1");
    expect(notices).toEqual([
      expect.stringMatching(/^Camp: “x”, “9” are not known camp values/),
      expect.stringMatching(/^Currency: “DOGE”/),
      expect.stringMatching(/^Price: “1e5”/),
      expect.stringMatching(/^Sort: “cheapest”/),
      expect.stringMatching(/^Page size: “37”/),
      "“foo” is not a filter, so it was ignored.",
    ]);
  });

  it("refuses pages beyond the market's result window", () => {
    const { filter, notices } = parse(`pageSize=100&page=${RESULT_WINDOW / 100 + 1}`);
    expect(filter.page).toBe(1);
    expect(notices[0]).toMatch(/first 10,000 results/);
    expect(canonical(`pageSize=100&page=${RESULT_WINDOW / 100}`)).toBe("pageSize=100&page=100");
  });

  it("infers the type from an attribute only one type has (rank → spaceships, pse → PSE)", () => {
    expect(canonical("rank=4")).toBe("nftType=4&rank=4");
    expect(canonical("pse=3")).toBe("nftType=2&pse=3");
    expect(canonical("sort=total-desc")).toBe("nftType=4&sort=total-desc");
    expect(canonical("endurance=10,20")).toBe("nftType=4&endurance=10,20");
    // Two types implied: the first in key order wins, the other is reported.
    const mixed = parse("rank=4&identity=1");
    expect(serializeMarketFilter(mixed.filter)).toBe("nftType=0&identity=1");
    expect(mixed.notices).toEqual([expect.stringMatching(/^Spaceship type applies to spaceships, not to hero cards/)]);
  });

  it("keeps “All types” when the form chose it, dropping type-only filters with a notice", () => {
    const { filter, notices } = parse("nftType=&identity=1&camp=0");
    expect(serializeMarketFilter(filter)).toBe("camp=0");
    expect(notices).toEqual([expect.stringMatching(/^Identity applies to hero cards, not to all types/)]);
  });

  it("drops filters that do not apply to the chosen type", () => {
    const { filter, notices } = parse("nftType=7&camp=1&level=2,4&sort=total-asc");
    expect(serializeMarketFilter(filter)).toBe("nftType=7&level=2,4");
    expect(notices).toHaveLength(2);
  });

  it("accepts the other spellings of product §3 and of the market API", () => {
    expect(canonical("faction=2")).toBe("camp=2");
    expect(canonical("nftType=3&type=1,2")).toBe("nftType=3&egse=1,2");
    expect(canonical("nftType=spaceship&sort=price&order=desc&pageNumber=3")).toBe("nftType=4&sort=price-desc&page=3");
    expect(canonical("camp=Asman Zerg")).toBe("camp=0");
    expect(parse("type=1").notices[0]).toMatch(/needs nftType 2 or 3/);
  });

  it("ignores the keys Remix adds to data requests", () => {
    expect(parse("nftType=4&_routes=routes%2Fmarketplace.market&_data=x").notices).toEqual([]);
    expect(isCanonical("?nftType=4&_routes=routes%2Fmarketplace.market", "nftType=4")).toBe(true);
    expect(isCanonical("?nftType=4", "nftType=4")).toBe(true);
    expect(isCanonical("", "")).toBe(true);
    // Loaders get a re-encoded URL: "%2C" is the same comma.
    expect(isCanonical("?nftType=4&camp=1%2C2", "nftType=4&camp=1,2")).toBe(true);
    expect(isCanonical("?camp=1,2&nftType=4", "nftType=4&camp=1,2")).toBe(false);
  });
});

describe("market filter → market query", () => {
  it("maps every filter to the product §3 listing query", () => {
    const { filter } = parse(
      "nftType=4&camp=1&rank=2,3&level=1,5&endurance=10,&total=,300&currency=BNB&price=1,2&sort=total-desc&pageSize=20&page=2",
    );
    expect(toMarketQuery(filter, "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")).toEqual({
      pageNumber: 2,
      pageSize: 20,
      address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
      nftType: 4,
      camp: [1],
      rank: [2, 3],
      min: { level: 1, endurance: 10, price: "1000000000000000000" },
      max: { level: 5, total: 300, price: "2000000000000000000" },
      currency: "BNB",
      sort: "total",
      order: "desc",
    });
  });

  it("sends PSE and EGSE types as `type` and equipment codes as `equipmentCode`", () => {
    expect(toMarketQuery(parse("pse=1,8").filter)).toMatchObject({ nftType: 2, type: [1, 8] });
    expect(toMarketQuery(parse("egse=3").filter)).toMatchObject({ nftType: 3, type: [3] });
    expect(toMarketQuery(parse("equipment=13&equipmentType=4").filter)).toMatchObject({
      nftType: 7,
      equipmentCode: [13],
      equipmentType: [4],
    });
    expect(toMarketQuery(parse("").filter)).toEqual({ pageNumber: 1, pageSize: 10, sort: "listed", order: "desc" });
  });
});

describe("market filter: venue", () => {
  it("keeps game or chain listings only, bookmarkable, and sends the market API's venue", () => {
    expect(canonical("venue=chain")).toBe("venue=chain");
    expect(canonical("venue=GAME&nftType=8")).toBe("nftType=8&venue=game");
    expect(canonical("venue=all")).toBe("");
    expect(parse("venue=all").notices).toEqual([]);
    expect(canonical("price=1,2&currency=BNB&venue=chain&sort=price-asc")).toBe("currency=BNB&price=1,2&venue=chain&sort=price-asc");
    expect(toMarketQuery(parse("venue=chain").filter)).toMatchObject({ venue: "chain" });
    expect(toMarketQuery(parse("venue=all").filter)).not.toHaveProperty("venue");
  });

  it("drops another venue with a notice, and the form's values say which is chosen", () => {
    const { filter, notices } = parse("venue=moon");
    expect(filter.venue).toBeUndefined();
    expect(notices).toEqual(["Venue: “moon” is not game, chain or all, so listings of both are shown."]);
    expect(marketFormValues(parse("venue=chain").filter).venue).toBe("chain");
    expect(marketFormValues(parse("").filter).venue).toBe("all");
  });

  it("has a chip that removes it, and survives a switch of type", () => {
    const filter = parse("nftType=8&venue=chain&page=2").filter;
    expect(filterChips(filter).map((chip) => [chip.label, chip.href])).toEqual([
      ["Type: Materials", "/marketplace/market?venue=chain"],
      ["Where: On chain", "/marketplace/market?nftType=8"],
    ]);
    expect(marketHref(withType(filter, 0))).toBe("/marketplace/market?nftType=0&venue=chain");
  });
});

describe("market filter form values", () => {
  it("carry the price history's period, but not the default one (issue 30)", () => {
    expect(marketFormValues(parse("nftType=0&period=90d").filter).period).toBe("90d");
    expect(marketFormValues(parse("period=30d").filter).period).toBeUndefined();
  });

  it("carry the options the type offers, with what the URL checked and typed", () => {
    const form = marketFormValues(parse("nftType=4&camp=3&level=2,&agility=5,9&currency=FIRE&price=1.5,").filter);
    expect(form.lists.map((list) => list.key)).toEqual(["camp", "rank"]);
    expect(form.lists[0].options.filter(([, , checked]) => checked).map(([code]) => code)).toEqual([3]);
    expect(form.level).toMatchObject({ key: "level", label: "Level", values: ["2", ""], min: 1, max: 10 });
    expect(form.stats.find((stat) => stat.key === "agility")?.values).toEqual(["5", "9"]);
    expect(form.statsSet).toBe(true);
    expect(form.price).toEqual({ key: "price", label: "Price in FIRE", values: ["1.5", ""] });
    expect(form.sortOptions.map((option) => option.value)).toContain("total-desc");
  });

  it("offer no spaceship stats, nor their sort, to other types", () => {
    const form = marketFormValues(parse("nftType=0").filter);
    expect(form.stats).toEqual([]);
    expect(form.statsSet).toBe(false);
    expect(form.sortOptions.map((option) => option.value)).not.toContain("total-desc");
    expect(form.lists.map((list) => list.key)).toEqual(["camp", "rarity", "identity", "profession"]);
  });
});

describe("filter chips", () => {
  it("gives one link per value, each removing only that value and going back to page 1", () => {
    const chips = filterChips(parse("nftType=0&camp=1,2&level=3,&currency=FIRE&price=,5&page=4").filter);
    expect(chips.map((chip) => [chip.label, chip.href])).toEqual([
      ["Type: Hero cards", "/marketplace/market?camp=1,2&level=3,&currency=FIRE&price=,5"],
      ["Camp: Empire of Amda", "/marketplace/market?nftType=0&camp=2&level=3,&currency=FIRE&price=,5"],
      ["Camp: Confederation of Earth", "/marketplace/market?nftType=0&camp=1&level=3,&currency=FIRE&price=,5"],
      ["Level ≥ 3", "/marketplace/market?nftType=0&camp=1,2&currency=FIRE&price=,5"],
      ["Currency: FIRE", "/marketplace/market?nftType=0&camp=1,2&level=3,&price=,5"],
      ["Price ≤ 5 FIRE", "/marketplace/market?nftType=0&camp=1,2&level=3,&currency=FIRE"],
    ]);
  });

  it("switching the type keeps what the new type has and quietly drops the rest", () => {
    const filter = parse("nftType=4&camp=1&rank=2&level=3,5&endurance=9,&sort=total-asc&page=3").filter;
    expect(marketHref(withType(filter, 0))).toBe("/marketplace/market?nftType=0&camp=1&level=3,5");
    expect(marketHref(withType(filter, 8))).toBe("/marketplace/market?nftType=8");
    expect(marketHref(withType(filter, undefined))).toBe("/marketplace/market?camp=1&level=3,5");
  });

  it("removing the type also removes what only that type has", () => {
    const [typeChip] = filterChips(parse("nftType=4&rank=2&camp=1&sort=total-asc").filter);
    expect(typeChip.href).toBe("/marketplace/market?camp=1");
  });
});

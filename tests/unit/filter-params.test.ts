import { describe, expect, it } from "vitest";
import { FilterParams } from "~/features/market/filters/shared";

const params = (search: string, aliases?: Record<string, string>) => new FilterParams(new URLSearchParams(search), aliases);

describe("FilterParams: reading a request's filter values", () => {
  it("trims values, keeps arrival order and leaves framework keys out", () => {
    const p = params("camp= 1 &camp=2&_data=routes/x&index&_routes=a");
    expect(p.take("camp")).toEqual(["1", "2"]);
    expect(p.take("camp")).toBeUndefined();
    p.rejectRest();
    expect(p.notices.list).toEqual([]);
  });

  it("folds an alias into its key after the key's own values", () => {
    const p = params("faction=3&camp=1", { faction: "camp" });
    expect(p.has("faction")).toBe(false);
    expect(p.take("camp")).toEqual(["1", "3"]);
  });

  it("takes the first of several different values of a single-valued key, with a notice; repeats of one value pass quietly", () => {
    const p = params("sort=price&sort=views&order=asc&order=asc");
    expect(p.one("sort", "Sort")).toBe("price");
    expect(p.one("order", "Order")).toBe("asc");
    expect(p.notices.list).toEqual(["Sort: only one value is allowed; “price” was used."]);
  });

  it("reads an NFT type by code or name, and drops anything else with a notice", () => {
    expect(params("nftType=4").nftType()).toBe(4);
    expect(params("nftType=Spaceship").nftType()).toBe(4);
    const p = params("nftType=9");
    expect(p.nftType()).toBeUndefined();
    expect(p.notices.list).toEqual(["Type: “9” is not an NFT type, so all types are shown."]);
    expect(params("nftType=").nftType()).toBeUndefined();
  });

  it("reads a currency in any case", () => {
    expect(params("currency=usdt").currency()).toBe("USDT");
    const p = params("currency=doge");
    expect(p.currency()).toBeUndefined();
    expect(p.notices.list[0]).toMatch(/^Currency: “doge” is not one of /);
  });

  it("reads a page from 1 to the last one given", () => {
    expect(params("page=7").page(7)).toBe(7);
    for (const bad of ["0", "8", "-1", "1.5", "x"]) {
      const p = params(`page=${bad}`);
      expect(p.page(7)).toBeUndefined();
      expect(p.notices.list).toEqual([`Page: “${bad}” is not a page number, so the first page is shown.`]);
    }
  });

  it("reports every key left unread, once each, and at most 12 notices in all", () => {
    const p = params(Array.from({ length: 20 }, (_, i) => `k${i}=1&k${i}=2`).join("&"));
    p.rejectRest();
    expect(p.notices.list).toHaveLength(12);
    expect(p.notices.list[0]).toBe("“k0” is not a filter, so it was ignored.");
    expect(new Set(p.notices.list).size).toBe(12);
  });
});

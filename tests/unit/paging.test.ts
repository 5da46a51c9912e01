import { describe, expect, it } from "vitest";
import { typeLinks } from "~/features/market/filters/shared";
import { lastPage, pageHrefs, pageWindow, resultCountText } from "~/features/market/paging";

const info = (page: number, total: number, pageSize = 20) => ({ page, pageSize, total, capped: false });

describe("pageHrefs", () => {
  it("links exactly the pages the pagination shows, with Previous and Next", () => {
    const hrefs = pageHrefs(info(5, 400), (page) => `/list?page=${page}`);
    expect(pageWindow(5, 20)).toEqual([1, "gap", 4, 5, 6, "gap", 20]);
    expect(Object.keys(hrefs).map(Number)).toEqual([1, 4, 5, 6, 20]);
    expect(hrefs[4]).toBe("/list?page=4");
  });
  it("has no Next on the last page, and takes a page past the end back to the last", () => {
    expect(Object.keys(pageHrefs(info(20, 400), String)).map(Number)).toEqual([1, 19, 20]);
    expect(Object.keys(pageHrefs(info(30, 400), String)).map(Number)).toEqual([1, 20]);
  });
  it("stops at the backend's result window", () => {
    expect(lastPage(info(1, 1_000_000, 100))).toBe(100);
  });
});

describe("typeLinks", () => {
  it("names where All and every type lead, and marks the view's own", () => {
    const links = typeLinks(4, (nftType) => (nftType === undefined ? "/all" : `/type/${nftType}`));
    expect(links).toHaveLength(10);
    expect(links[0]).toEqual({ href: "/all", label: "All types", current: false });
    expect(links.filter((link) => link.current)).toEqual([{ href: "/type/4", label: "Spaceships", current: true }]);
    expect(typeLinks(undefined, () => "/", "All")[0]).toEqual({ href: "/", label: "All", current: true });
  });
});

describe("resultCountText", () => {
  const info = (page: number, total: number, capped = false) => ({ page, pageSize: 10, total, capped });
  it.each([
    [info(1, 0), "No items"],
    [info(1, 1), "1 item"],
    [info(1, 7), "7 items"],
    [info(1, 10), "10 items"],
    [info(1, 1_234), "Showing 1–10 of 1,234 items"],
    [info(2, 1_234), "Showing 11–20 of 1,234 items"],
    [info(3, 21), "Showing 21 of 21 items"],
    [info(5, 21), "21 items"],
    [info(1, 10_000, true), "Showing 1–10 of 10,000+ items"],
    [info(1, 1, true), "Showing 1 of 1+ items"],
  ])("%j reads %j", (page, text) => {
    expect(resultCountText(page)).toBe(text);
  });
});

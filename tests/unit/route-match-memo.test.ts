/**
 * Decision 0037: @remix-run/router's matchRoutes, kept by its arguments. The same answers as the router's own, computed
 * once per (route tree, path, basename), each caller with its own match objects, a bounded number of paths per tree.
 */
import { createRequire } from "node:module";
import { matchRoutes } from "@remix-run/router";
import { describe, expect, it } from "vitest";
import { installRouteMatchMemo, memoizedMatchRoutes, treeShape, type MatchRoutes } from "../../server/route-match-memo";

const routes = [
  {
    id: "root",
    path: "",
    children: [
      { id: "home", index: true },
      { id: "market", path: "marketplace", children: [{ id: "detail", path: "detail" }] },
      { id: "nft", path: "nft/*" },
      { id: "player", path: "player/:address" },
    ],
  },
];
describe("treeShape", () => {
  it("names what matching depends on: ids, paths, index and case rules, children", () => {
    expect(treeShape(structuredClone(routes))).toBe(treeShape(routes));
    expect(treeShape([{ ...routes[0], caseSensitive: true }])).not.toBe(treeShape(routes));
    expect(treeShape([{ ...routes[0], id: "other" }])).not.toBe(treeShape(routes));
  });
});

const ids = (matches: ReturnType<MatchRoutes>) => matches?.map((match) => (match.route as { id: string }).id) ?? null;

describe("memoizedMatchRoutes", () => {
  it("answers as matchRoutes does, once per path, with match objects of its own for each caller", () => {
    const calls: string[] = [];
    const counted: MatchRoutes = (tree, location, basename) => {
      calls.push(typeof location === "string" ? location : (location.pathname ?? ""));
      return matchRoutes(tree as never, location, basename) as ReturnType<MatchRoutes>;
    };
    const memo = memoizedMatchRoutes(counted);
    for (const path of ["/", "/marketplace/detail", "/nft/items/a.json", "/player/0xabc", "/nowhere"]) {
      expect(memo(routes, path)).toEqual(matchRoutes(routes, path));
      expect(memo(routes, { pathname: path })).toEqual(matchRoutes(routes, { pathname: path }));
    }
    expect(ids(memo(routes, "/marketplace/detail"))).toEqual(["root", "market", "detail"]);
    expect(memo(routes, "/nowhere")).toBeNull();
    // Each path once per form, whatever the number of calls.
    expect(calls).toHaveLength(10);
    const first = memo(routes, "/player/0xabc")!;
    first[1].params.address = "changed";
    expect(memo(routes, "/player/0xabc")![1].params.address).toBe("0xabc");
    // Another basename: computed afresh.
    expect(ids(memo(routes, "/app/marketplace", "/app"))).toEqual(["root", "market"]);
    expect(calls).toHaveLength(11);
    // A tree of the same shape (Remix builds one per render) is answered from the memo, with its own routes.
    const copy = structuredClone(routes);
    const matches = memo(copy, "/marketplace/detail")!;
    expect(calls).toHaveLength(11);
    expect(matches[2].route).toBe(copy[0].children[1].children![0]);
    // Another shape is another tree.
    const other = [{ ...routes[0], children: [...routes[0].children, { id: "extra", path: "extra" }] }];
    expect(ids(memo(other, "/extra"))).toEqual(["root", "extra"]);
    expect(calls).toHaveLength(12);
  });

  it("keeps at most `limit` paths per tree, the least recently used going first", () => {
    const calls: string[] = [];
    const memo = memoizedMatchRoutes((tree, location, basename) => {
      calls.push(String(location));
      return matchRoutes(tree as never, location, basename) as ReturnType<MatchRoutes>;
    }, 2);
    memo(routes, "/a");
    memo(routes, "/b");
    memo(routes, "/a");
    memo(routes, "/c");
    memo(routes, "/a");
    memo(routes, "/b");
    expect(calls).toEqual(["/a", "/b", "/c", "/b"]);
  });

  it("is installed in place of the router's export, which Remix calls through the module", () => {
    const router = createRequire(import.meta.url)("@remix-run/router") as { matchRoutes: MatchRoutes & { memoized?: true } };
    const original = router.matchRoutes;
    try {
      installRouteMatchMemo();
      installRouteMatchMemo();
      expect(router.matchRoutes.memoized).toBe(true);
      expect(ids(router.matchRoutes(routes, "/marketplace/detail"))).toEqual(["root", "market", "detail"]);
    } finally {
      router.matchRoutes = original;
    }
  });
});

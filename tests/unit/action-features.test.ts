/**
 * What the status page asks of an action's feature, knowing none: the follow-up it offers, and the way back to the
 * page its form was on (only the feature's own pages; never another site).
 */
import { describe, expect, it, vi } from "vitest";
import type { Execution } from "~core/api/actions";
import { followUpOf, registerActionFeature, wayBack } from "~/services/action-features.server";
import { testExecution } from "./execution-fixture";

const execution = (action: Execution["action"], params: Execution["params"] = { tokenId: "12" }) => testExecution(action, params);

const form = { action: "/spaceship/detail", fields: { intent: "next" }, label: "Next" };
const ships = vi.fn(async () => form);
registerActionFeature("spaceship.", {
  pages: /^\/spaceship\/detail\?tokenId=\d+$/,
  home: ({ params }) => `/spaceship/detail?tokenId=${"tokenId" in params ? params.tokenId : ""}`,
  backLabel: () => "Back to your fleet",
  followUp: ships,
});
registerActionFeature("staking.", {
  pages: /^\/loyalty\/page\/\d$/,
  home: () => "/game",
  backLabel: () => "Back to the pool",
});

const upgrade = { action: "/spaceship/upgrade", fields: { intent: "upgrade" }, label: "Upgrade again" };
const upgrades = vi.fn(async () => upgrade);
registerActionFeature("spaceship.upgrade", {
  pages: /^\/spaceship\/upgrade$/,
  home: () => "/spaceship/upgrade",
  backLabel: () => "Back to the dock",
  followUp: upgrades,
});

describe("followUpOf", () => {
  it("asks the follow-up registered for the action's prefix, with the way back, and offers nothing where none is", async () => {
    expect(await followUpOf(execution("spaceship.explore"), "/spaceship/detail?tokenId=12")).toBe(form);
    expect(ships).toHaveBeenCalledWith(execution("spaceship.explore"), "/spaceship/detail?tokenId=12");
    expect(await followUpOf(execution("staking.withdraw", { poolId: 1 }), "/game")).toBeNull();
    expect(await followUpOf(execution("bridge.swapNft"), "/game")).toBeNull();
    expect(ships).toHaveBeenCalledTimes(1);
  });

  it("takes the feature of the longest prefix that names the action, whatever the order they were registered in", async () => {
    expect(await followUpOf(execution("spaceship.upgrade"), "/spaceship/upgrade")).toBe(upgrade);
    expect(wayBack(execution("spaceship.upgrade"), "/spaceship/detail?tokenId=7")).toEqual({
      href: "/spaceship/upgrade",
      label: "Back to the dock",
    });
    expect(ships).toHaveBeenCalledTimes(1);
  });

  it("refuses a second feature for the same prefix", () => {
    registerActionFeature("bridge.", { pages: /^\/game$/, home: () => "/game", backLabel: () => "Back" });
    expect(() => registerActionFeature("bridge.", { pages: /^\/game$/, home: () => "/game", backLabel: () => "Back" })).toThrow(
      /registered already/,
    );
  });
});

describe("wayBack", () => {
  it("leads back to the page the form was on, when it is one of the feature's pages", () => {
    expect(wayBack(execution("spaceship.repair"), "/spaceship/detail?tokenId=7")).toEqual({
      href: "/spaceship/detail?tokenId=7",
      label: "Back to your fleet",
    });
  });

  it("leads to the feature's home instead of another feature's page, another site or no page", () => {
    const home = { href: "/spaceship/detail?tokenId=12", label: "Back to your fleet" };
    for (const requested of ["/loyalty/page/1", "https://evil.example/spaceship/detail?tokenId=7", "//evil.example", null]) {
      expect(wayBack(execution("spaceship.repair"), requested)).toEqual(home);
    }
  });

  it("says 'Back to the game' for /game, and leads there for an action of no registered feature", () => {
    expect(wayBack(execution("staking.withdraw", { poolId: 1 }), null)).toEqual({ href: "/game", label: "Back to the game" });
    expect(wayBack(execution("lootbox.open", { boxIds: ["1"] }), "/lootbox/4")).toEqual({ href: "/game", label: "Back to the game" });
  });

  it("takes any registered feature's page while the execution cannot be read", () => {
    expect(wayBack(null, "/loyalty/page/2")).toEqual({ href: "/loyalty/page/2", label: "Back to the pool" });
    expect(wayBack(null, "/marketplace/market")).toEqual({ href: "/game", label: "Back to the game" });
  });
});

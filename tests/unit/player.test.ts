import { describe, expect, it } from "vitest";
import { filterChips } from "~/features/market/filters/chips";
import { marketHref, parseMarketFilter } from "~/features/market/filters/market";
import { playerPath } from "~/domain/player-path";
import { playerAddress, playerLabel } from "~/features/players/player";

const WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("a player page's path", () => {
  it("names a wallet checksummed; lower case is the same wallet", () => {
    expect(playerAddress(WALLET)).toBe(WALLET);
    expect(playerAddress(WALLET.toLowerCase())).toBe(WALLET);
    expect(playerPath(WALLET)).toBe(`/player/${WALLET}`);
  });

  it("names no wallet with a broken checksum, a short address or text", () => {
    const broken = WALLET.replace("C51812dc", "c51812dc");
    for (const segment of [broken, WALLET.slice(0, 40), "alice", "", `${WALLET}0`]) expect(playerAddress(segment)).toBeNull();
  });
});

describe("how a player is named (issue 42)", () => {
  it("by the display name they chose, else by the wallet's short form with the whole wallet beside it", () => {
    expect(playerLabel({ DisplayName: "Star Lord" }, WALLET)).toEqual({ name: "Star Lord", named: true, wallet: WALLET });
    expect(playerLabel({ DisplayName: null }, WALLET)).toEqual({ name: "0x7099…dc79C8", named: false, wallet: WALLET });
  });
});

describe("the market's filter on a player's page", () => {
  const path = playerPath(WALLET);
  const { filter } = parseMarketFilter(new URLSearchParams("nftType=0&camp=1&page=2"));

  it("keeps the market's canonical query on the player's path", () => {
    expect(marketHref(filter, path)).toBe(`${path}?nftType=0&camp=1&page=2`);
  });

  it("removes one filter at a time on that path too", () => {
    expect(filterChips(filter, path).map((chip) => chip.href)).toEqual([`${path}?camp=1`, `${path}?nftType=0`]);
  });
});

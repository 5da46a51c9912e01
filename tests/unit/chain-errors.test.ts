import { describe, expect, it } from "vitest";
import { assetManagerAbi, starshipManagerAbi, tradingAbi } from "../../contracts/generated/abi";
import { INSUFFICIENT_BALANCE, revertMessage } from "~core/chain-errors";
import { SHIP_SLOT_COUNT } from "~core/spaceship";

describe("the StarshipManager's and SparkCard locks' refusals in words", () => {
  it("words every custom error of the manager, and the card's lock", () => {
    const names = [...starshipManagerAbi.filter((item) => item.type === "error").map((item) => item.name), "TokenLocked"];
    // AccessControl's errors are the admin's; SafeERC20FailedOperation needs a token that returns false, and FIRE
    // and QUARK revert with their own errors instead.
    const players = names.filter((name) => !name.startsWith("AccessControl") && name !== "SafeERC20FailedOperation");
    expect(players.length).toBeGreaterThanOrEqual(19);
    for (const name of players) expect(revertMessage(name, [1n, 2n, 3n]), name).not.toMatch(/^The contract refused/);
  });

  it("names the ship, the slot and the material as core/spaceship.ts does", () => {
    expect(revertMessage("NoDurationLeft", [12n])).toBe("Ship #12 has no duration left: repair it before it explores again.");
    expect(revertMessage("ShipNotExploring", [12n])).toBe("Ship #12 is not exploring.");
    expect(revertMessage("NothingToRepair", [12n])).toBe("Ship #12 is fully repaired.");
    expect(revertMessage("AllSlotsOpen", [12n])).toBe("Every slot of ship #12 is open.");
    expect(revertMessage("SlotLocked", [12n, 1n])).toBe("The Helmet slot is locked: open it with a slot opener first.");
    expect(revertMessage("SlotTaken", [12n, 0n])).toBe("The Weapon slot is taken: remove what is in it first.");
    expect(revertMessage("SlotEmpty", [12n, 3n])).toBe("The Leggings slot is empty.");
    expect(revertMessage("SlotEmpty", [12n, BigInt(SHIP_SLOT_COUNT)])).toBe("The #4 slot is empty.");
    expect(revertMessage("WrongSlot", [40n, 2n])).toBe("Item #40 does not go in the Cuirass slot.");
    expect(revertMessage("TopLevel", [10n])).toBe("This ship is at the top level, 10.");
    expect(revertMessage("NotEnoughMaterials", [1n, 20n, 5n])).toBe(
      "Not enough materials: this needs 15 Silver more (20 needed, 5 mined).",
    );
    expect(revertMessage("NotEnoughMaterials", [0n, 50n, 0n])).toContain("50 DarkIron more");
    expect(revertMessage("NotEnoughMaterials", [2n, 5n, 1n])).toContain("4 Gold more");
    expect(revertMessage("TokenLocked", [7n])).toBe(
      "Item #7 is in use by a spaceship (exploring, or fitted with equipment): recall the ship and remove its equipment first.",
    );
  });

  it("words a FIRE or QUARK payment the token refused", () => {
    expect(revertMessage("ERC20InsufficientBalance", [])).toBe(INSUFFICIENT_BALANCE);
    expect(revertMessage("ERC20InsufficientAllowance", [])).toBe(revertMessage("InsufficientAllowance", []));
  });
});

describe("the asset manager's refusals of a claim or a swap in words", () => {
  it("words every custom error of the asset manager", () => {
    const names = assetManagerAbi.filter((item) => item.type === "error").map((item) => item.name);
    // Ownable's errors are the admin's; SafeERC20FailedOperation needs a token that returns false (FIRE and QUARK revert).
    const players = names.filter((name) => !name.startsWith("Ownable") && name !== "SafeERC20FailedOperation");
    expect(players.length).toBeGreaterThanOrEqual(15);
    for (const name of players) expect(revertMessage(name, [1n, 2n, 3n]), name).not.toMatch(/^The contract refused/);
  });

  it("says what happens to a stale or used claim's asset", () => {
    expect(revertMessage("ClaimExpired", [0n])).toMatch(
      /^This claim expired at .+, so the chain refused it\. What it claimed comes back into the game within minutes; claim again then\.$/,
    );
    expect(revertMessage("ClaimAlreadyUsed", [1n, 2n])).toBe("This claim has already been paid on the chain, so it cannot be used again.");
    expect(revertMessage("NftNotInCustody", ["0x00", 42n])).toContain("Item #42 is not held for the game");
  });
});

describe("the trading contract's refusals in words", () => {
  // The admin's and the libraries' errors (Ownable, EIP-712's short strings, the guard, SafeERC20) never reach a player.
  const NOT_A_PLAYERS = /^(Ownable|InvalidShortString$|StringTooLong$|ReentrancyGuard|SafeERC20)/;

  it("words every custom error of the trading contract", () => {
    const names = tradingAbi.filter((item) => item.type === "error").map((item) => item.name);
    const players = names.filter((name) => !NOT_A_PLAYERS.test(name));
    expect(players.length).toBeGreaterThanOrEqual(15);
    for (const name of players) expect(revertMessage(name, [1n, 2n, 3n]), name).not.toMatch(/^The contract refused/);
    expect(revertMessage("ListingFilled", ["0x00"])).toBe("This listing has already been bought.");
  });
});

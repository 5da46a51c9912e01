import { describe, expect, it } from "vitest";
import { DISPLAY_NAME_MAX_LENGTH, DISPLAY_NAME_MIN_LENGTH, displayNameKey, displayNameProblem } from "~core/display-name";

const LENGTH = `A name has ${DISPLAY_NAME_MIN_LENGTH} to ${DISPLAY_NAME_MAX_LENGTH} characters.`;
const EMAIL = "A name can’t look like an email address.";
const WALLET = "A name can’t start with 0x: it would look like a wallet address.";
const SHAPE = "Use letters A–Z and digits, with _, - or single spaces between them.";
const RESERVED = "That name is reserved: choose another.";

describe("a display name (issue 42)", () => {
  it("takes 3 to 20 letters and digits, with _, - or single spaces between them", () => {
    for (const name of ["Ace", "Star Lord", "nova_7", "Comet-Rider", "a-b_c d", "X".repeat(DISPLAY_NAME_MAX_LENGTH), "007"]) {
      expect(displayNameProblem(name), name).toBeNull();
    }
  });

  it("refuses each kind of bad name with its own words, in the rule's order", () => {
    const cases: [string, string][] = [
      ["ab", LENGTH],
      ["X".repeat(DISPLAY_NAME_MAX_LENGTH + 1), LENGTH],
      // A whole address is too long anyway; its start alone would still pass for one.
      ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", LENGTH],
      ["0x1234abcd", WALLET],
      ["0Xbeef", WALLET],
      ["me@sparkera.test", EMAIL],
      ["@home", EMAIL],
      ["Star  Lord", SHAPE],
      [" Star", SHAPE],
      ["Star_", SHAPE],
      ["-Star", SHAPE],
      ["Zoë", SHAPE],
      ["аdmin", SHAPE], // a Cyrillic а
      ["Star.Lord", SHAPE],
      ["Star\tLord", SHAPE],
      ["admin", RESERVED],
      ["Spark Era", RESERVED],
      ["spark_era", RESERVED],
      ["Spark-Era", RESERVED],
      ["MODERATOR", RESERVED],
      ["Sup-port", RESERVED],
    ];
    for (const [name, message] of cases) expect(displayNameProblem(name), name).toBe(message);
  });

  it("is one name in any case: the key the database keeps unique", () => {
    expect(displayNameKey("Star Lord")).toBe("star lord");
    expect(displayNameKey("STAR LORD")).toBe(displayNameKey("star lord"));
    // Separators stay apart: these are two names.
    expect(displayNameKey("Star_Lord")).not.toBe(displayNameKey("Star-Lord"));
  });
});

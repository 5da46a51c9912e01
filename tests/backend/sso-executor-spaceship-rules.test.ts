/**
 * The executor's spaceship rules without a chain (issue 15): the strict inputs of the eight actions, the approvals
 * of the StarshipManager, and the migration that lets steps of the new kinds be stored. The flows and the guard on
 * a real chain are in sso-executor-spaceship.test.ts.
 */
import { describe, expect, it } from "vitest";
import { isApprovalStep, stepGasLimit } from "../../backend/sso/executor/policy";
import { actionRequestInput } from "../../backend/sso/executor/schemas";
import { checkStepKindsMigration } from "./sso-rules-fixture";

const parse = (action: string, params: unknown) => {
  const result = actionRequestInput.safeParse({ action, params, idempotencyKey: "key-00000001" });
  return result.success ? "ok" : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
};

describe("spaceship inputs", () => {
  it("take the documented parameters exactly", () => {
    for (const action of ["spaceship.explore", "spaceship.recall", "spaceship.repair", "spaceship.upgrade", "spaceship.openSlot"]) {
      expect(parse(action, { tokenId: "1000000042" })).toBe("ok");
      expect(parse(action, { tokenId: "01" })).toBe("params.tokenId: must be a token id in decimal digits");
      expect(parse(action, {})).toBe("params.tokenId: Required");
    }
    expect(parse("spaceship.fit", { tokenId: "7", slot: 3, equipmentId: "8" })).toBe("ok");
    expect(parse("spaceship.fit", { tokenId: "7", slot: -1, equipmentId: "8" })).toBe("params.slot: must be a slot from 0 to 3");
    expect(parse("spaceship.fit", { tokenId: "7", slot: "0", equipmentId: "8" })).toBe("params.slot: must be a number");
    expect(parse("spaceship.fit", { tokenId: "7", slot: 0, equipmentId: "x" })).toBe(
      "params.equipmentId: must be a token id in decimal digits",
    );
    expect(parse("spaceship.unfit", { tokenId: "7", slot: 0 })).toBe("ok");
    expect(parse("spaceship.unfit", { tokenId: "7", slot: 0, equipmentId: "8" })).toMatch(/^params: may hold only tokenId and slot;/);
    expect(parse("spaceship.sendMaterials", { amounts: ["120", "0", "5"] })).toBe("ok");
    expect(parse("spaceship.sendMaterials", { amounts: ["0", "0", "0"] })).toBe("params.amounts: must send at least one material");
    expect(parse("spaceship.sendMaterials", { amounts: ["1", "2"] })).toMatch(/^params\.amounts: /);
    expect(parse("spaceship.sendMaterials", { amounts: ["1", "2", "3", "4"] })).toMatch(/^params\.amounts: /);
    expect(parse("spaceship.sendMaterials", { amounts: ["-1", "0", "0"] })).toBe("params.amounts.0: must be whole units in decimal digits");
    expect(parse("spaceship.sendMaterials", { amounts: ["0", "0", `1${"0".repeat(78)}`] })).toBe(
      "params.amounts.2: must be whole units in decimal digits",
    );
  });

  it("approvals of the manager count as approving, and every kind has a gas limit", () => {
    expect([isApprovalStep("approve-ship"), isApprovalStep("ship")]).toEqual([true, false]);
    expect([stepGasLimit("approve-ship"), stepGasLimit("ship")]).toEqual([100_000n, 200_000n]);
  });
});

describe("the migration to the spaceship step kinds", () => {
  it("keeps the stored steps, takes the new kinds and still refuses unknown ones", async () => {
    await checkStepKindsMigration(
      "sso_008_spaceship_step_kinds",
      "sso_009",
      "bridge.swapNft",
      { stored: "swap", added: "ship" },
      ({ step }) => {
        step(1, "approve-ship");
        step(2, "ship");
        expect(() => step(3, "transfer")).toThrow(/CHECK constraint failed/);
      },
    );
  });
});

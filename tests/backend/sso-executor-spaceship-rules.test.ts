/**
 * The executor's spaceship rules without a chain (issue 15): the strict inputs of the eight actions, the approvals
 * of the StarshipManager, and the migration that lets steps of the new kinds be stored. The flows and the guard on
 * a real chain are in sso-executor-spaceship.test.ts.
 */
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { describe, expect, it } from "vitest";
import { isApprovalStep, stepGasLimit } from "../../backend/sso/executor/policy";
import { actionRequestInput } from "../../backend/sso/executor/schemas";
import { migrate } from "../../backend/db/migrate";
import { ssoMigrations } from "../../backend/sso/migrations";

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
    const sqlite = new SQLite(":memory:");
    sqlite.pragma("foreign_keys = ON");
    const kysely = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    await migrate(
      kysely,
      ssoMigrations.filter((m) => m.name < "sso_008"),
    );
    const now = new Date().toISOString();
    sqlite.prepare("insert into users (email, password_hash, created_at) values ('a@b.test', 'x', ?)").run(now);
    sqlite
      .prepare(
        `insert into action_executions (id, user_id, wallet, action, params, idempotency_key, status, created_at, updated_at)
         values ('e1', 1, '0xw', 'bridge.swapNft', '{}', 'key-00000001', 'mined', ?, ?)`,
      )
      .run(now, now);
    const step = (position: number, kind: string) =>
      sqlite
        .prepare(
          `insert into action_steps (execution_seq, position, kind, label, status, to_address, data, value, gas, raw_tx, tx_hash)
           values (1, ?, ?, 'a step', 'mined', '0xto', '0x', '0', '1', '0xraw', '0xhash')`,
        )
        .run(position, kind);
    step(0, "swap");
    expect(() => step(1, "ship")).toThrow(/CHECK constraint failed/);

    expect(
      await migrate(
        kysely,
        ssoMigrations.filter((m) => m.name < "sso_009"),
      ),
    ).toEqual(["sso_008_spaceship_step_kinds"]);
    expect(sqlite.prepare("select position, kind, raw_tx from action_steps").all()).toEqual([
      { position: 0, kind: "swap", raw_tx: "0xraw" },
    ]);
    step(1, "approve-ship");
    step(2, "ship");
    expect(() => step(3, "transfer")).toThrow(/CHECK constraint failed/);
    sqlite.prepare("delete from action_executions").run();
    expect(sqlite.prepare("select count(*) as n from action_steps").get()).toEqual({ n: 0 });
    await kysely.destroy();
  });
});

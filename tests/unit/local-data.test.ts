import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { committedSourcesHash, DEPLOYMENT_WIRING } from "../../contracts/deploy";
import { retireStaleLocalData } from "../../server/local-data";

function dataDir(sourcesHash: string | undefined, wiring: number | null = DEPLOYMENT_WIRING) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-data-"));
  fs.mkdirSync(path.join(dir, "chain"));
  fs.writeFileSync(
    path.join(dir, "chain", "deployment.json"),
    JSON.stringify({ chainId: 31337, sourcesHash, wiring: wiring ?? undefined }),
  );
  fs.writeFileSync(path.join(dir, "chain", "anvil-state.json"), "{}");
  for (const file of ["spark.db", "spark.db-wal", "spark.db-shm", "notes.txt"]) fs.writeFileSync(path.join(dir, file), file);
  return dir;
}

describe("retireStaleLocalData: the local chain and database stay in agreement when the contracts change", () => {
  it("keeps data deployed from the committed contracts", () => {
    const dir = dataDir(committedSourcesHash());
    expect(retireStaleLocalData(path.join(dir, "spark.db"), path.join(dir, "chain"))).toBeNull();
    expect(fs.existsSync(path.join(dir, "chain", "deployment.json"))).toBe(true);
  });

  it("moves the chain and the database (with its WAL files) aside together, and nothing else", () => {
    const stale: [string | undefined, number | null][] = [
      ["0".repeat(64), DEPLOYMENT_WIRING],
      [undefined, DEPLOYMENT_WIRING],
      // The same contracts, wired the old way (no store minter).
      [committedSourcesHash(), null],
      [committedSourcesHash(), DEPLOYMENT_WIRING - 1],
    ];
    for (const [sourcesHash, wiring] of stale) {
      const dir = dataDir(sourcesHash, wiring);
      const target = retireStaleLocalData(path.join(dir, "spark.db"), path.join(dir, "chain"), new Date("2026-11-25T10:00:00Z"));
      expect(target).toBe(path.join(dir, "stale-2026-11-25T10-00-00-000Z"));
      expect(fs.readdirSync(target!).sort()).toEqual(["chain", "spark.db", "spark.db-shm", "spark.db-wal"]);
      expect(fs.readdirSync(dir).sort()).toEqual(["notes.txt", "stale-2026-11-25T10-00-00-000Z"]);
    }
  });

  it("does nothing on a first start", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-data-"));
    expect(retireStaleLocalData(path.join(dir, "spark.db"), path.join(dir, "chain"))).toBeNull();
  });
});

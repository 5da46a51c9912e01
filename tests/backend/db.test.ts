import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../backend/schema";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-db-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("openDatabase", () => {
  it("opens the ledger's file in WAL mode with synchronous=FULL, so a committed trade survives a power cut", async () => {
    const store = await openDatabase(path.join(dir, "spark.db"));
    try {
      const pragma = (name: string) => store.sqlite!.pragma(name, { simple: true });
      expect(pragma("journal_mode")).toBe("wal");
      // 2 = FULL: WAL mode with NORMAL may lose the last commits (never corrupt) if the OS or power fails.
      expect(pragma("synchronous")).toBe(2);
      expect(pragma("foreign_keys")).toBe(1);
    } finally {
      await store.close();
    }
  });
});

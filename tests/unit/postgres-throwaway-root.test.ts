import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { throwawayRoot } from "../support/postgres";

describe("where a throwaway PostgreSQL cluster's files go", () => {
  it("goes to the RAM-backed root when it has the room", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "ram-root-"));
    try {
      expect(throwawayRoot(root, 1)).toBe(root);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("falls back to the temp dir when that root lacks the room or does not exist", () => {
    expect(throwawayRoot(os.tmpdir(), Number.MAX_SAFE_INTEGER)).toBe(os.tmpdir());
    expect(throwawayRoot(path.join(os.tmpdir(), "no-such-root", String(process.pid)), 1)).toBe(os.tmpdir());
  });
});

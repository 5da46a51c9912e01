/**
 * Issue 44: public/'s file server sees only the paths under public/'s own entries, so a page's request costs no
 * file-system stat.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { describe, expect, it } from "vitest";
import { firstSegment, publicFiles } from "../../server/public-files";

describe("firstSegment", () => {
  it("is the path's first segment, decoded", () => {
    expect(firstSegment("/images/nft/a.png")).toBe("images");
    expect(firstSegment("/favicon.svg")).toBe("favicon.svg");
    expect(firstSegment("/")).toBe("");
    expect(firstSegment("/fav%69con.svg")).toBe("favicon.svg");
    expect(firstSegment("/%E0%A4%A")).toBe("%E0%A4%A");
  });
});

describe("publicFiles", () => {
  it("hands the file server the paths under public/'s entries, and every other path to the next handler", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "public-files-"));
    fs.writeFileSync(path.join(dir, "favicon.svg"), "<svg/>");
    fs.mkdirSync(path.join(dir, "images"));
    const served: string[] = [];
    const serve: RequestHandler = (req) => void served.push(req.path);
    const handler = publicFiles(dir, serve);
    const passed: string[] = [];
    for (const p of ["/favicon.svg", "/images/art/x.png", "/images", "/marketplace/market", "/", "/favicon.svg.map"]) {
      handler({ path: p } as Request, {} as Response, (() => passed.push(p)) as NextFunction);
    }
    expect(served).toEqual(["/favicon.svg", "/images/art/x.png", "/images"]);
    expect(passed).toEqual(["/marketplace/market", "/", "/favicon.svg.map"]);
    fs.rmSync(dir, { recursive: true });
  });

  it("serves nothing when there is no public/", () => {
    const passed: string[] = [];
    publicFiles("/nonexistent-public-dir", () => passed.push("served"))({ path: "/favicon.svg" } as Request, {} as Response, () =>
      passed.push("next"),
    );
    expect(passed).toEqual(["next"]);
  });
});

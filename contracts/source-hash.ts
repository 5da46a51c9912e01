/**
 * The sources hash of the generated build outputs: sha256 over every contracts/src/*.sol (name and content, in
 * name order). compile.ts records it in contracts/generated/; a test recomputes it, so a .sol edited without
 * running the compiler fails the suite instead of shipping stale ABIs or bytecode.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const contractsDir = path.dirname(fileURLToPath(import.meta.url));
export const SOURCE_DIR = path.join(contractsDir, "src");
export const GENERATED_DIR = path.join(contractsDir, "generated");
export const ARTIFACTS_DIR = path.join(GENERATED_DIR, "artifacts");
export const SOURCE_HASH_FILE = path.join(GENERATED_DIR, "source-hash.json");

/** What source-hash.json records. */
export interface SourceHashRecord {
  sourcesHash: string;
  /** The .sol files hashed, in order. */
  sources: string[];
  solc: string;
}

/** contracts/src/*.sol, by file name, in name order. */
export function readSources(): Record<string, { content: string }> {
  const sources: Record<string, { content: string }> = {};
  for (const file of fs
    .readdirSync(SOURCE_DIR)
    .filter((f) => f.endsWith(".sol"))
    .sort()) {
    sources[file] = { content: fs.readFileSync(path.join(SOURCE_DIR, file), "utf8") };
  }
  return sources;
}

export function sourcesHash(sources = readSources()): string {
  const hash = createHash("sha256");
  for (const [file, { content }] of Object.entries(sources)) hash.update(`${file}\0${content}\0`);
  return hash.digest("hex");
}

import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DatabaseInUseError, lockDatabase } from "../../backend/db/process-lock";
import { startBackends } from "../../backend";
import { testBackendOptions } from "./harness";

let dir: string;
let other: ChildProcess | undefined;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-lock-"));
});
afterEach(async () => {
  if (other && other.exitCode === null && other.signalCode === null) {
    other.kill("SIGKILL");
    await once(other, "exit");
  }
  other = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Another node process that takes the lock of `file` and holds it until killed; resolves once it holds it. */
async function otherServer(file: string): Promise<ChildProcess> {
  const script = `
    const { lockDatabase } = await import(${JSON.stringify(path.resolve("backend/db/process-lock.ts"))});
    lockDatabase(${JSON.stringify(file)});
    console.log("locked");
    setInterval(() => {}, 1000);`;
  other = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    other!.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("locked") && resolve());
    other!.once("exit", (code) => reject(new Error(`the other process exited with ${code}`)));
  });
  return other;
}

describe("one server process per database", () => {
  it("refuses a second process while the first runs, and takes over once it was killed", async () => {
    const file = path.join(dir, "spark.db");
    const holder = await otherServer(file);
    expect(() => lockDatabase(file)).toThrow(DatabaseInUseError);
    expect(() => lockDatabase(file)).toThrow(`Another server process (pid ${holder.pid}) is running on ${file}`);
    await expect(startBackends(file, testBackendOptions)).rejects.toThrow(DatabaseInUseError);

    holder.kill("SIGKILL");
    await once(holder, "exit");
    const backends = await startBackends(file, testBackendOptions);
    expect(JSON.parse(fs.readFileSync(`${file}.lock`, "utf8")).pid).toBe(process.pid);
    await backends.close();
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  }, 30_000);

  it("does not mistake a reused pid for the holder: a lock naming a live process that started later is stale", () => {
    const file = path.join(dir, "spark.db");
    // This very process, but as if it had started at another time (a pid reused after a reboot).
    fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.ppid, boot: "another-boot", start: "1" }));
    const lock = lockDatabase(file);
    expect(JSON.parse(fs.readFileSync(`${file}.lock`, "utf8")).pid).toBe(process.pid);
    lock.release();
  });

  it("lets the process that holds the lock take it again, and an unreadable lock is replaced", () => {
    const file = path.join(dir, "spark.db");
    const first = lockDatabase(file);
    expect(() => lockDatabase(file)).not.toThrow();
    first.release();
    fs.writeFileSync(`${file}.lock`, "{half");
    lockDatabase(file).release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

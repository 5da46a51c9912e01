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

/**
 * Another node process that takes the lock of `file` and holds it until killed; resolves with its pid once it holds
 * it. `orphaned`: started by a shell that then becomes `sleep`, which never collects it, so once killed it stays a
 * zombie until the sleep ends.
 */
async function otherServer(file: string, { orphaned = false } = {}): Promise<number> {
  const script = path.join(dir, "holder.mjs");
  fs.writeFileSync(
    script,
    `const { lockDatabase } = await import(${JSON.stringify(path.resolve("backend/db/process-lock.ts"))});
    lockDatabase(${JSON.stringify(file)});
    console.log("locked " + process.pid);
    setInterval(() => {}, 1000);`,
  );
  const node = `"${process.execPath}" --import tsx "${script}"`;
  other = orphaned
    ? spawn("sh", ["-c", `${node} & exec sleep 30`], { stdio: ["ignore", "pipe", "inherit"] })
    : spawn("sh", ["-c", `exec ${node}`], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise<number>((resolve, reject) => {
    other!.stdout!.on("data", (chunk: Buffer) => {
      const pid = /locked (\d+)/.exec(chunk.toString())?.[1];
      if (pid) resolve(Number(pid));
    });
    other!.once("exit", (code) => reject(new Error(`the other process exited with ${code}`)));
  });
}

describe("one server process per database", () => {
  it("refuses a second process while the first runs, and takes over once it was killed", async () => {
    const file = path.join(dir, "spark.db");
    const holder = await otherServer(file);
    expect(() => lockDatabase(file)).toThrow(DatabaseInUseError);
    expect(() => lockDatabase(file)).toThrow(`Another server process (pid ${holder}) is running on ${file}`);
    await expect(startBackends(file, testBackendOptions)).rejects.toThrow(DatabaseInUseError);

    other!.kill("SIGKILL");
    await once(other!, "exit");
    const backends = await startBackends(file, testBackendOptions);
    expect(JSON.parse(fs.readFileSync(`${file}.lock`, "utf8")).pid).toBe(process.pid);
    await backends.close();
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  }, 30_000);

  it("takes over from a killed holder its parent has not collected yet (a zombie)", async () => {
    const file = path.join(dir, "spark.db");
    const holder = await otherServer(file, { orphaned: true });
    expect(() => lockDatabase(file)).toThrow(DatabaseInUseError);
    process.kill(holder, "SIGKILL");
    const deadline = Date.now() + 5000;
    while (!/\) Z /.test(fs.readFileSync(`/proc/${holder}/stat`, "utf8"))) {
      if (Date.now() > deadline) throw new Error("the holder did not become a zombie");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    lockDatabase(file).release();
  });

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

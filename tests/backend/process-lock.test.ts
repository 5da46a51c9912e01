import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DatabaseInUseError, lockDatabase } from "../../backend/db/process-lock";
import { startBackends } from "../../backend";
import { testBackendOptions } from "./harness";

let dir: string;
let others: ChildProcess[] = [];
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-lock-"));
});
afterEach(async () => {
  for (const other of others) {
    if (other.exitCode !== null || other.signalCode !== null) continue;
    other.kill("SIGKILL");
    await once(other, "exit");
  }
  others = [];
  vi.unstubAllEnvs();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** `name` in a directory of its own under the test's directory. */
function fileIn(folder: string, name: string) {
  fs.mkdirSync(path.join(dir, folder), { recursive: true });
  return path.join(dir, folder, name);
}

/**
 * Another server process: a node process that takes the lock of `file` and holds it until killed. Resolves with its
 * pid once it holds it, or rejects with its refusal. `orphaned`: started by a shell that then becomes `sleep`, which
 * never collects it, so once killed it stays a zombie until the sleep ends.
 */
async function otherServer(file: string, { orphaned = false } = {}): Promise<{ pid: number; process: ChildProcess }> {
  const script = path.join(dir, "holder.mjs");
  fs.writeFileSync(
    script,
    `const { lockDatabase } = await import(${JSON.stringify(path.resolve("backend/db/process-lock.ts"))});
    try {
      await lockDatabase(process.argv[2]);
    } catch (error) {
      console.log("refused " + error.message);
      process.exit(3);
    }
    console.log("locked " + process.pid);
    setInterval(() => {}, 1000);`,
  );
  const node = `"${process.execPath}" --import tsx "${script}" "${file}"`;
  const other = orphaned
    ? spawn("sh", ["-c", `${node} & exec sleep 30`], { stdio: ["ignore", "pipe", "inherit"] })
    : spawn("sh", ["-c", `exec ${node}`], { stdio: ["ignore", "pipe", "inherit"] });
  others.push(other);
  let output = "";
  return new Promise((resolve, reject) => {
    other.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const pid = /locked (\d+)/.exec(output)?.[1];
      if (pid) resolve({ pid: Number(pid), process: other });
    });
    other.once("exit", () => reject(new Error(output.trim())));
  });
}

describe("one server process per database", () => {
  it("refuses a second process while the first runs, and takes over at once when it was killed", async () => {
    const file = path.join(dir, "spark.db");
    const holder = await otherServer(file);
    await expect(lockDatabase(file)).rejects.toThrow(DatabaseInUseError);
    await expect(lockDatabase(file)).rejects.toThrow(`Another server process (pid ${holder.pid}) is running on ${file}`);
    await expect(startBackends(file, testBackendOptions)).rejects.toThrow(DatabaseInUseError);

    holder.process.kill("SIGKILL");
    await once(holder.process, "exit");
    const backends = await startBackends(file, testBackendOptions);
    expect(JSON.parse(fs.readFileSync(`${file}.lock`, "utf8")).pid).toBe(process.pid);
    await backends.close();
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
    await lockDatabase(file).then((lock) => lock.release());
  });

  it("locks the file, not the path: a symlink or a hard link to it from another directory is refused", async () => {
    const file = fileIn("data", "spark.db");
    const symlink = fileIn("elsewhere", "spark.db");
    const hardLink = fileIn("other", "copy.db");
    const holder = await otherServer(file);
    fs.symlinkSync(file, symlink);
    fs.linkSync(file, hardLink);

    await expect(lockDatabase(symlink)).rejects.toThrow(`Another server process (pid ${holder.pid}) is running on ${symlink}`);
    await expect(startBackends(symlink, testBackendOptions)).rejects.toThrow(DatabaseInUseError);
    // The hard link has no pid file beside it: the OS lock alone refuses it.
    await expect(lockDatabase(hardLink)).rejects.toThrow(`Another server process is running on ${hardLink}`);
    await expect(otherServer(hardLink)).rejects.toThrow(`refused Another server process is running on ${hardLink}`);
  });

  it("takes over from a killed holder its parent has not collected yet (a zombie)", async () => {
    const file = path.join(dir, "spark.db");
    const { pid } = await otherServer(file, { orphaned: true });
    await expect(lockDatabase(file)).rejects.toThrow(DatabaseInUseError);
    process.kill(pid, "SIGKILL");
    const deadline = Date.now() + 5000;
    while (!/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"))) {
      if (Date.now() > deadline) throw new Error("the holder did not become a zombie");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await lockDatabase(file).then((lock) => lock.release());
  });

  it("lets the process that holds the lock take it again, by any path, until every taker released it", async () => {
    const file = fileIn("data", "spark.db");
    const symlink = fileIn("elsewhere", "spark.db");
    fs.symlinkSync(file, symlink);
    const first = await lockDatabase(file);
    const second = await lockDatabase(symlink);
    await first.release();
    await expect(otherServer(file)).rejects.toThrow("refused Another server process");
    await second.release();
    await otherServer(file);
  });

  it("locks a file created anew where the old one was moved aside, as the server's retired data is", async () => {
    const file = path.join(dir, "spark.db");
    const old = await lockDatabase(file);
    fs.renameSync(file, `${file}.old`);
    const renewed = await lockDatabase(file);
    await expect(otherServer(file)).rejects.toThrow("refused Another server process");
    await expect(otherServer(`${file}.old`)).rejects.toThrow("refused Another server process");
    await Promise.all([old.release(), renewed.release()]);
  });
});

describe("without flock(1): the pid file beside the resolved path", () => {
  // A shell without flock, as on macOS.
  beforeEach(() => {
    const bin = fileIn("bin", "sh");
    fs.symlinkSync("/bin/sh", bin);
    vi.stubEnv("PATH", path.dirname(bin));
  });

  it("refuses a symlink to a locked file, and says why once", async () => {
    const file = fileIn("data", "spark.db");
    const symlink = fileIn("elsewhere", "spark.db");
    fs.symlinkSync(file, symlink);
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const lock = await lockDatabase(file, log);
    await lockDatabase(symlink, log).then((again) => again.release());
    expect(log.warn).toHaveBeenCalledOnce();
    expect(log.warn.mock.calls[0][0]).toMatch(/flock\(1\) is missing/);
    await expect(otherServer(symlink)).rejects.toThrow(`refused Another server process (pid ${process.pid})`);
    await lock.release();
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });

  it("does not mistake a reused pid for the holder: a lock naming a live process that started later is stale", async () => {
    const file = path.join(dir, "spark.db");
    // This very process, but as if it had started at another time (a pid reused after a reboot).
    fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.ppid, boot: "another-boot", start: "1" }));
    const lock = await lockDatabase(file, { info() {}, warn() {}, error() {} });
    expect(JSON.parse(fs.readFileSync(`${file}.lock`, "utf8")).pid).toBe(process.pid);
    await lock.release();
  });

  it("replaces an unreadable lock", async () => {
    const file = path.join(dir, "spark.db");
    fs.writeFileSync(`${file}.lock`, "{half");
    await lockDatabase(file, { info() {}, warn() {}, error() {} }).then((lock) => lock.release());
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });
});

import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../backend/schema";
import { postgresRoles } from "../../backend/db/postgres-roles";
import { localRoles, type RoleName, type Roles, type RoleWork } from "../../backend/db/roles";
import { createTestDatabase, roleHolderPids } from "../support/postgres";

const RETRY_MS = 50;

/** A role's work that records what happened to it. */
function recordingWork(name: string, events: string[]): RoleWork & { handedOver: string[]; rescans: number; fences: number[] } {
  const work = {
    handedOver: [] as string[],
    rescans: 0,
    fences: [] as number[],
    start: (fence: number) => {
      work.fences.push(fence);
      events.push(`${name} start`);
    },
    stop: async () => void events.push(`${name} stop`),
    handOver: (payload: string) => void work.handedOver.push(payload),
    rescan: () => void work.rescans++,
  };
  return work;
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

let url: string;
const pools: pg.Pool[] = [];
const opened: Roles[] = [];
/** The roles of one process: its own pool, as a server process has. */
function processRoles(): Roles {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pools.push(pool);
  const roles = postgresRoles({ connectionString: url }, pool, { retryMs: RETRY_MS, rescanMs: RETRY_MS, log: () => undefined });
  opened.push(roles);
  return roles;
}

/** The backend pid holding a role's lock, as another session sees it. */
async function holderPid(admin: pg.Client, role: RoleName): Promise<number | null> {
  return (await roleHolderPids(admin, role))[0] ?? null;
}

let admin: pg.Client;
beforeAll(async () => {
  url = await createTestDatabase();
  // Migrated: taking a role writes its fencing token (role_fences).
  await (await openDatabase(url)).close();
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((roles) => roles.close()));
});
afterAll(async () => {
  await admin.end();
  await Promise.all(pools.map((pool) => pool.end()));
});

describe("roles on PostgreSQL", () => {
  it("gives a role to exactly one of the processes competing for it", async () => {
    const events: string[] = [];
    const a = processRoles();
    const b = processRoles();
    const c = processRoles();
    await Promise.all([
      a.run("executor", recordingWork("a", events)),
      b.run("executor", recordingWork("b", events)),
      c.run("executor", recordingWork("c", events)),
    ]);
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS * 4));
    expect([a, b, c].filter((roles) => roles.holds("executor"))).toHaveLength(1);
    expect(events.filter((event) => event.endsWith("start"))).toHaveLength(1);
    const confirmed = await Promise.all([a, b, c].map((roles) => roles.confirm("executor")));
    expect(confirmed.filter(Boolean)).toHaveLength(1);
  });

  it("keeps each role apart: one process may hold one role and another process another", async () => {
    const events: string[] = [];
    const a = processRoles();
    const b = processRoles();
    await a.run("executor", recordingWork("a-executor", events));
    await b.run("indexer", recordingWork("b-indexer", events));
    expect(a.holds("executor") && b.holds("indexer")).toBe(true);
  });

  it("hands work to the holder from another process (NOTIFY), and the holder rescans meanwhile", async () => {
    const events: string[] = [];
    const holderWork = recordingWork("holder", events);
    const otherWork = recordingWork("other", events);
    const holder = processRoles();
    const other = processRoles();
    await holder.run("delivery", holderWork);
    await other.run("delivery", otherWork);
    expect(holder.holds("delivery")).toBe(true);
    await other.handOver("delivery", "cs_test_1");
    await holder.handOver("delivery", "cs_test_2");
    await until(() => holderWork.handedOver.length === 2);
    expect(holderWork.handedOver.sort()).toEqual(["cs_test_1", "cs_test_2"]);
    expect(otherWork.handedOver).toEqual([]);
    await until(() => holderWork.rescans >= 2);
    expect(otherWork.rescans).toBe(0);
  });

  it("moves the role to another process when the holder's connection dies, the new holding under a higher fencing token", async () => {
    const events: string[] = [];
    const first = processRoles();
    const second = processRoles();
    const firstWork = recordingWork("first", events);
    const secondWork = recordingWork("second", events);
    await first.run("executor", firstWork);
    await second.run("executor", secondWork);
    expect(first.holds("executor")).toBe(true);

    const pid = await holderPid(admin, "executor");
    expect(pid).not.toBeNull();
    await admin.query("select pg_terminate_backend($1)", [pid]);
    await until(() => second.holds("executor"));
    expect(first.holds("executor")).toBe(false);
    expect(await first.confirm("executor")).toBe(false);
    expect(await second.confirm("executor")).toBe(true);
    // The lock went with the session: the new holder may start before the old one's work has stopped, which is why
    // the executor asks (confirm) before each signature.
    await until(() => events.includes("first stop"));
    expect(events.filter((event) => event.endsWith("start"))).toEqual(["first start", "second start"]);
    expect(secondWork.fences).toHaveLength(1);
    expect(secondWork.fences[0]).toBeGreaterThan(firstWork.fences[0]);
    // The old holder competes again, as a follower.
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS * 4));
    expect(first.holds("executor")).toBe(false);
  });

  it("lets go on close, so another process takes the role at its next try", async () => {
    const events: string[] = [];
    const leaving = processRoles();
    const staying = processRoles();
    await leaving.run("indexer", recordingWork("leaving", events));
    await staying.run("indexer", recordingWork("staying", events));
    await leaving.close();
    expect(events).toEqual(["leaving start", "leaving stop"]);
    await until(() => staying.holds("indexer"), RETRY_MS * 20);
    expect(events.at(-1)).toBe("staying start");
  });
});

describe("roles of a process alone on its database (SQLite)", () => {
  it("holds every role from run to close, hands work over in process and rescans", async () => {
    const events: string[] = [];
    const roles = localRoles({ rescanMs: 20 });
    const work = recordingWork("only", events);
    await roles.run("executor", work);
    expect(roles.holds("executor")).toBe(true);
    expect(roles.holds("indexer")).toBe(false);
    expect(await roles.confirm("executor")).toBe(true);
    await roles.handOver("executor", "0xabc");
    expect(work.handedOver).toEqual(["0xabc"]);
    await until(() => work.rescans >= 2);
    await roles.close();
    expect(events).toEqual(["only start", "only stop"]);
    expect(roles.holds("executor")).toBe(false);
  });
});

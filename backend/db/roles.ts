/**
 * Background roles: the executor, the chain indexer, card delivery and the chain reconciler each run in exactly one process at a time
 * (decision 0013). On PostgreSQL a role is a lease, a session advisory lock on a connection of its own
 * (postgres-roles.ts); on SQLite the file is locked to one process (process-lock.ts), which holds every role.
 * Each taking of a role counts up its fencing token (the `role_fences` row), so what a holding writes can name the
 * holding, and a write under a token that is no longer the current one is refused (the executor's signatures).
 */
export const ROLE_NAMES = ["executor", "indexer", "delivery", "reconciler"] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

/** What a role does while this process holds it. */
export interface RoleWork {
  /**
   * This process took the role: start, picking up what an earlier holder left unfinished. `fence` is this holding's
   * fencing token, higher than any earlier holding's.
   */
  start(fence: number): Promise<void> | void;
  /** The role is lost or the process stops: stop at a safe point, leaving state stored for the next holder. */
  stop(): Promise<void>;
  /** Work another process (or this one) handed over: a payload such as a wallet or an order. */
  handOver?(payload: string): void;
  /** Looks for unfinished work, every `rescanMs` while held: a hand-over sent while nobody held the role is not lost. */
  rescan?(): Promise<void> | void;
}

export interface Roles {
  /** Competes for the role from now on; `work` runs while this process holds it. Resolves after the first attempt. */
  run(role: RoleName, work: RoleWork): Promise<void>;
  /** Whether this process holds the role, as far as it knows without asking. */
  holds(role: RoleName): boolean;
  /** Asks the database whether this process still holds the role: before a step that must not be taken twice. */
  confirm(role: RoleName): Promise<boolean>;
  /** Hands work to the role's holder, in this process or another (PostgreSQL's NOTIFY). */
  handOver(role: RoleName, payload: string): Promise<void>;
  /** Lets go of every role, each after its work stopped. */
  close(): Promise<void>;
}

/** How often a held role's work rescans for unfinished work. */
export const RESCAN_MS = 2_000;

/** Counts up a role's fencing token and answers the new one. */
export type TakeFence = (role: RoleName) => Promise<number>;

/**
 * The roles of a process that is alone on its database: every role is held from `run` until `close`. `takeFence`
 * writes the token to the database (`role_fences`); without one (the roles' own tests) it is counted in memory.
 */
export function localRoles({ rescanMs = RESCAN_MS, takeFence }: { rescanMs?: number; takeFence?: TakeFence } = {}): Roles {
  let taken = 0;
  const fence = takeFence ?? (() => Promise.resolve(++taken));
  const running = new Map<RoleName, { work: RoleWork; rescan: NodeJS.Timeout | null }>();
  return {
    async run(role, work) {
      if (running.has(role)) throw new Error(`the ${role} role already runs`);
      // Held from here: the work's own start asks whether it holds the role (the executor before a signature).
      const held: { work: RoleWork; rescan: NodeJS.Timeout | null } = { work, rescan: null };
      running.set(role, held);
      await work.start(await fence(role));
      if (!work.rescan || running.get(role) !== held) return;
      held.rescan = setInterval(() => void Promise.resolve(work.rescan!()).catch(() => undefined), rescanMs);
      held.rescan.unref();
    },
    holds: (role) => running.has(role),
    confirm: (role) => Promise.resolve(running.has(role)),
    handOver(role, payload) {
      running.get(role)?.work.handOver?.(payload);
      return Promise.resolve();
    },
    async close() {
      for (const [role, { work, rescan }] of running) {
        if (rescan) clearInterval(rescan);
        running.delete(role);
        await work.stop();
      }
    },
  };
}

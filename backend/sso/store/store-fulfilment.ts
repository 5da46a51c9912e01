/**
 * Card delivery (docs/api/sso.md "Store"): the work of the delivery role (db/roles.ts), which runs in one process at
 * a time. The webhook only records an order `paid` and hands it over; the holder delivers every paid order, several at
 * once (their forges signed and sent without waiting for each other's blocks), on start, on each rescan and on each
 * hand-over. A forge is signed only while the role is confirmed, and stored under the order's claim before it is
 * sent, so a forge signed by an earlier holder (dead, or stopped mid-way) is sent again as the same bytes and
 * followed, never signed twice. A failed delivery stays `paid` with its error and is tried
 * again later, each time after a longer pause.
 */
import { shortError } from "~core/rpc-errors";
import type { Roles, RoleWork } from "../../db/roles";
import type { OrderRow, createCardOrders } from "./card-orders";
import type { BoxDelivery, ForgeOutcome, SignedForge } from "./store-delivery";

type Orders = ReturnType<typeof createCardOrders>;

export interface DeliveryBackoff {
  /** The pause after an order's first failed delivery; it doubles with each failure after it. */
  firstMs: number;
  /** The longest pause. */
  maxMs: number;
}

export const DEFAULT_DELIVERY_BACKOFF: DeliveryBackoff = { firstMs: 5_000, maxMs: 5 * 60_000 };

/** How many orders are delivered at once: their forges wait for their blocks side by side. */
export const DELIVERY_CONCURRENCY = 8;

/** Thrown inside a delivery when it must not go on: the role was stopped or lost before a forge was signed. */
class Stopped extends Error {
  constructor() {
    super("the delivery role was stopped or lost");
  }
}

export function createDeliveryWorker({
  orders,
  delivery,
  roles,
  log = (message) => console.error(message),
  backoff = DEFAULT_DELIVERY_BACKOFF,
}: {
  orders: Orders;
  /** The minter; null without a chain, and then every paid order waits, with its error, for one. */
  delivery: BoxDelivery | null;
  roles: Pick<Roles, "confirm">;
  log?: (message: string) => void;
  backoff?: DeliveryBackoff;
}) {
  /** Whether this process holds the role: set by start, cleared by stop. */
  let held = false;
  /** Which holding this is: a delivery abandoned by a stop must not sign in a later holding of this same process. */
  let term = 0;
  /** Called when the role stops: a delivery waiting for its block lets go then (its forge stays stored). */
  const onStop = new Set<() => void>();
  /** The running pass over the paid orders, and whether another was asked for meanwhile. */
  let pass: Promise<void> | null = null;
  let again = false;
  /** Failed orders: how often in a row, and not before when to try again. Kept by the holder; a new one tries at once. */
  const failures = new Map<string, { count: number; notBefore: number }>();

  /**
   * Mints a paid order's boxes exactly once: a forge stored by an earlier attempt (a timeout, a crash, an earlier
   * holder) is sent again and followed; a new one is signed only when there is none, or the stored one reverted or
   * lost its nonce, and only while the role is confirmed, and it is stored under this claim before it is sent. The
   * mined forge's hash.
   */
  async function forgeOnce(
    minter: BoxDelivery,
    token: string,
    row: OrderRow & { wallet_address: string },
    myTerm: number,
  ): Promise<string> {
    const earlier = (await orders.bySessionId(row.session_id))?.delivery_forge ?? null;
    let forge: SignedForge | null = earlier ? (JSON.parse(earlier) as SignedForge) : null;
    let outcome: ForgeOutcome = forge ? await minter.settle(forge) : "dropped";
    if (outcome === "mined") return forge!.hash;
    if (forge) log(`store: the forge ${forge.hash} of order ${row.session_id} was ${outcome}; signing it again`);
    if (!held || term !== myTerm || !(await roles.confirm("delivery"))) throw new Stopped();
    const signed = await minter.sign(row.wallet_address as `0x${string}`, Number(row.product_id), row.quantity);
    // Not stored, so never sent: its nonce goes to the next forge, or it would hold every later one back.
    const stored = await orders.deliveryForge(row.session_id, token, signed).catch((error: unknown) => {
      minter.forget(signed);
      throw error;
    });
    if (!stored) {
      minter.forget(signed);
      throw new Error("another holder took the delivery over");
    }
    forge = signed;
    outcome = await minter.settle(forge);
    if (outcome === "mined") return forge.hash;
    await orders.deliveryForge(row.session_id, token, null);
    throw new Error(`the forge ${forge.hash} was ${outcome}`);
  }

  /** `work`, or a Stopped rejection as soon as the role stops (the work itself goes on, unheard). */
  function untilStopped<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const stop = () => reject(new Stopped());
      onStop.add(stop);
      work.then(resolve, reject).finally(() => onStop.delete(stop));
      if (!held) stop();
    });
  }

  /** One paid order: claimed, forged (or its stored forge followed), settled; on failure kept paid with its error. */
  async function deliver(row: OrderRow): Promise<void> {
    const token = await orders.claimDelivery(row.session_id);
    if (!token) return;
    try {
      if (!delivery) throw new Error("no chain is configured to deliver boxes");
      if (!row.wallet_address) throw new Error("the order names no wallet");
      // On stop, stop waiting: the claim ends below, and a forge already stored is the next holder's to send again.
      const hash = await untilStopped(forgeOnce(delivery, token, row as OrderRow & { wallet_address: string }, term));
      await orders.delivered(row.session_id, token, hash);
      failures.delete(row.session_id);
    } catch (error) {
      if (error instanceof Stopped) {
        await orders.releaseDelivery(row.session_id, token);
        return;
      }
      const count = (failures.get(row.session_id)?.count ?? 0) + 1;
      const pause = Math.min(backoff.maxMs, backoff.firstMs * 2 ** (count - 1));
      failures.set(row.session_id, { count, notBefore: Date.now() + pause });
      await orders.deliveryFailed(row.session_id, token, shortError(error));
      log(
        `store: delivering order ${row.session_id} failed (${count} in a row, next try in ${Math.round(pause / 1000)} s): ${shortError(error)}`,
      );
    }
  }

  /** Delivers every paid order that is due, `DELIVERY_CONCURRENCY` at once, until none is left or the role stops. */
  async function drain(): Promise<void> {
    while (held && again) {
      again = false;
      const due = (await orders.awaitingDelivery()).filter((row) => (failures.get(row.session_id)?.notBefore ?? 0) <= Date.now());
      // Forges stored earlier are sent again as they are: new ones must not take their nonces meanwhile.
      for (const row of due) if (row.delivery_forge) delivery?.reserve(JSON.parse(row.delivery_forge) as SignedForge);
      const queue = due.values();
      const lane = async () => {
        for (const row of queue) {
          if (!held) return;
          await deliver(row);
        }
      };
      await Promise.all(Array.from({ length: DELIVERY_CONCURRENCY }, lane));
    }
  }

  /** Asks for a pass over the paid orders: now, or right after the one running. */
  function kick(): Promise<void> {
    if (!held) return Promise.resolve();
    again = true;
    pass ??= drain()
      .catch((error: unknown) => log(`store: the delivery pass failed: ${shortError(error)}`))
      .finally(() => {
        pass = null;
        if (held && again) void kick();
      });
    return pass;
  }

  const role: RoleWork = {
    start() {
      held = true;
      term++;
      failures.clear();
      void kick();
    },
    async stop() {
      held = false;
      for (const stop of onStop) stop();
      await pass;
    },
    handOver: () => void kick(),
    rescan: () => {
      void kick();
    },
  };

  return {
    role,
    /** Resolves once no pass is running (tests: the hand-overs so far are worked off). */
    async idle(): Promise<void> {
      while (pass) await pass;
    },
  };
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;

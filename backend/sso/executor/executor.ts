/**
 * The executor of named on-chain actions for managed wallets (docs/api/sso.md "On-chain actions"): answers a
 * request once per idempotency key, counts it against the account's rate, pre-checks and plans it against the
 * chain, stores it and hands it to the wallet's queue. Any process takes requests; the queues run in the one process
 * that holds the executor role (`role`, db/roles.ts), which signs only while it still holds it.
 */
import { type Address, createPublicClient, getAddress, type LocalAccount } from "viem";
import type { Kysely } from "kysely";
import type { AnalyticsSink } from "~core/analytics";
import type { ActionRequest, ActionSubmitAnswer, Execution, GasQuote } from "~core/api/actions";
import { notEnoughGasMessage } from "~core/chain-errors";
import type { Roles, RoleWork } from "../../db/roles";
import { ApiError } from "../../http";
import { backendTransport } from "../../chain-transport";
import type { BackendChain, BackendLog, Database } from "../../types";
import { createEventDeliverer, sinkSender } from "./events";
import { createGasSponsor, type GasTankConfig } from "./gas-sponsor";
import { type PlanContext, type PlannedStep, Refusal } from "./plan";
import { gasShortfall, planSteps } from "./planners";
import { DEFAULT_EXECUTOR_POLICY, type ExecutorPolicy, rateLimitMessage } from "./policy";
import { createRunner, type Runner } from "./runner";
import { isProviderBusy, readableChain } from "~core/chain-transport";
import { createExecutionRecords } from "./records";
import type { ActionExecutionRow } from "../shared/tables";

export const MANAGED_WALLET_ONLY = "On-chain actions from the web need a managed wallet: a browser wallet sends its own transactions.";
export const KEY_REUSED = "This idempotencyKey was already used for a different action; use a new key for a new action.";
export const NO_GAME_PROFILE = "This wallet belongs to no player with a game profile: send the item to a player's bound wallet.";
export const NODE_DOWN = "The chain is not answering right now, so nothing was sent. Please try again in a moment.";

export interface ExecutorDeps {
  db: Kysely<Database>;
  /** Where the queues run: the holder of the executor role. */
  roles: Roles;
  chain: BackendChain;
  accountOf(userId: number): Promise<LocalAccount | null>;
  /**
   * The managed wallet's address alone: a request is planned for an address, and only the queue's runner, about to
   * sign, needs the key unsealed (and checked against the address). accountOf's address when not given.
   */
  addressOf?(userId: number): Promise<Address | null>;
  policy?: ExecutorPolicy;
  log?: BackendLog;
  /** Where mined actions' analytics events go (decision 0009); unset, they are recorded and dropped. */
  analytics?: AnalyticsSink;
  /** The gas tank (decision 0038); unset, a wallet without the BNB for its gas is refused (decision 0005). */
  gasTank?: GasTankConfig;
}

/** The longest pause between two tries of a failing analytics sink. */
const ANALYTICS_RETRY_MAX_MS = 60_000;

export function createExecutor({
  db,
  roles,
  chain,
  accountOf,
  addressOf = async (userId) => (await accountOf(userId))?.address ?? null,
  policy = DEFAULT_EXECUTOR_POLICY,
  log = console,
  analytics,
  gasTank,
}: ExecutorDeps) {
  const client = createPublicClient({
    chain: readableChain(chain.chainId),
    // A plan's reads at one block (balances, allowances, prices, limits): one Multicall3 call. Simulations name their
    // sender and go out alone.
    batch: { multicall: true },
    // At most RPC_BATCH_SIZE calls per JSON-RPC batch: in a drop a thousand queues' simulations and raw transactions
    // fall in one tick, and one unbounded batch (viem's default is 1,000 calls) outgrows a node's request size
    // (anvil refuses bodies of a few MB as "Invalid request"), failing every call in it.
    transport: backendTransport(chain, "executor", { batch: true, timeoutMs: 10_000 }),
  });
  const records = createExecutionRecords(db);
  const sponsor = gasTank ? createGasSponsor({ db, client, contracts: chain.contracts, tank: gasTank, executorPolicy: policy }) : null;
  /** The queues and the analytics delivery, while this process holds the role. */
  let held: { runner: Runner; deliverer: ReturnType<typeof createEventDeliverer> } | null = null;

  const role: RoleWork = {
    /** Resumes what an earlier holder left unfinished, the delivery of its events included. */
    async start(fence) {
      const deliverer = createEventDeliverer({
        db,
        send: sinkSender(analytics ?? { kind: "off" }),
        log,
        retryMs: chain.pollIntervalMs,
        retryMaxMs: ANALYTICS_RETRY_MAX_MS,
      });
      const runner = createRunner({
        records,
        client,
        chain,
        policy,
        accountOf,
        log,
        holdsRole: () => roles.confirm("executor"),
        tank:
          sponsor && gasTank
            ? { account: gasTank.account, feeReceiver: sponsor.feeReceiver, maxTopUpWei: sponsor.policy.accountDayWei }
            : null,
        fence,
        onMined: () => deliverer.kick(),
      });
      held = { runner, deliverer };
      deliverer.start();
      await runner.resume();
    },
    async stop() {
      const stopping = held;
      held = null;
      await stopping?.runner.stop();
      await stopping?.deliverer.stop();
    },
    handOver: (wallet) => held?.runner.kick(wallet),
    rescan: () => held?.runner.resume(),
  };

  /** sendNft delivers into a player's game inventory: a wallet no account is bound to has none (the SSO knows the bindings). */
  async function requireGameProfile(account: string): Promise<void> {
    const bound = await db
      .selectFrom("users")
      .select("id")
      .where("wallet_address", "in", [getAddress(account), account.toLowerCase()])
      .executeTakeFirst();
    if (!bound) throw new ApiError(400, NO_GAME_PROFILE);
  }

  /** The same key answers its execution, but only for the same action and parameters. */
  async function replay(row: ActionExecutionRow, request: ActionRequest): Promise<Execution> {
    if (row.action !== request.action || row.params !== JSON.stringify(request.params)) throw new ApiError(409, KEY_REUSED);
    return records.wire(row);
  }

  /** The action's steps now, or its refusal as the API answers it. */
  async function plan(ctx: PlanContext, request: ActionRequest): Promise<PlannedStep[]> {
    return planSteps(ctx, request.action, request.params).catch((error: unknown) => {
      if (error instanceof Refusal) throw new ApiError(400, error.message);
      if (isProviderBusy(error)) throw new ApiError(503, NODE_DOWN, { cause: error });
      throw error;
    });
  }

  /** Stores the execution and hands it to the wallet's queue; a parallel post with the same key answers that one's. */
  async function queue(userId: number, wallet: Address, request: ActionRequest, steps: PlannedStep[]): Promise<Execution> {
    const row = await records.insert({ userId, wallet, ...request, steps });
    // A parallel post with the same key stored first: answer its execution.
    if (!row) return replay((await records.byKey(userId, request.idempotencyKey))!, request);
    // Stored: the holder's rescan finds it even if this hand-over is lost.
    await roles.handOver("executor", row.wallet).catch((error: unknown) => log.warn(`executor: hand-over failed: ${String(error)}`));
    return records.wire(row);
  }

  return {
    /**
     * Queues the action, or, for a wallet without the BNB for its gas while the gas tank runs, answers the fee to
     * review first (decision 0038): nothing is queued until the quote is confirmed.
     */
    async submit(userId: number, request: ActionRequest): Promise<ActionSubmitAnswer> {
      const existing = await records.byKey(userId, request.idempotencyKey);
      if (existing) return replay(existing, request);
      const over = await records.takeRate(userId, policy.rate.max, policy.rate.windowMs);
      if (over) throw new ApiError(429, rateLimitMessage(over.retryInMs));
      const wallet = await addressOf(userId);
      if (!wallet) throw new ApiError(403, MANAGED_WALLET_ONLY);
      if (request.action === "trade.sendNft") await requireGameProfile(request.params.account);
      const ctx = { client, contracts: chain.contracts, wallet, policy };
      const steps = await plan(ctx, request);
      const short = await gasShortfall(ctx, steps).catch((error: unknown) => {
        if (isProviderBusy(error)) throw new ApiError(503, NODE_DOWN, { cause: error });
        throw error;
      });
      if (short) {
        // A purchase paid in BNB needs BNB anyway: the tank sponsors only what spends none.
        if (!sponsor || short.value > 0n) throw new ApiError(400, notEnoughGasMessage({ wallet, ...short }));
        return { review: await sponsor.quote(userId, wallet, request, steps, short.gasPrice) };
      }
      return queue(userId, wallet, request, steps);
    },

    /** The caller's quote, or null. */
    async findQuote(userId: number, id: string): Promise<GasQuote | null> {
      return sponsor ? sponsor.find(userId, id) : null;
    },

    /**
     * Queues the action a quote was for, with the tank's gas and the fee around its steps; once per quote (a
     * confirmation again answers the same execution). The chain is read again: what it now refuses is refused.
     */
    async confirmQuote(userId: number, id: string): Promise<Execution> {
      if (!sponsor) throw new ApiError(404, "No such fee to confirm.");
      const { request, quote } = await sponsor.confirmable(userId, id);
      const existing = await records.byKey(userId, request.idempotencyKey);
      if (existing) {
        await sponsor.confirmed(quote.id, existing.id);
        return replay(existing, request);
      }
      const wallet = await addressOf(userId);
      if (!wallet || wallet !== quote.wallet) throw new ApiError(403, MANAGED_WALLET_ONLY);
      const steps = await plan({ client, contracts: chain.contracts, wallet, policy }, request);
      const sponsored = await sponsor.steps(quote, steps);
      await sponsor.sponsor(quote);
      const execution = await queue(userId, wallet, request, sponsored);
      await sponsor.confirmed(quote.id, execution.id);
      return execution;
    },

    /** The gas tank's balance and today's sponsorships, for the metrics; null without a tank. */
    gasTank: sponsor ? () => sponsor.state() : null,

    /** The caller's execution, or null (another account's is as unknown as a made-up id). */
    async find(userId: number, id: string): Promise<Execution | null> {
      const row = await records.byId(id);
      return row && row.user_id === userId ? records.wire(row) : null;
    },

    /** The caller's execution under an idempotency key, or null: a form posted again finds the action it started. */
    async findByKey(userId: number, key: string): Promise<Execution | null> {
      const row = await records.byKey(userId, key);
      return row ? records.wire(row) : null;
    },

    /** Unfinished executions by status, for the metrics. */
    queueDepth: () => records.unfinishedByStatus(),

    /** The queues' work, run by the holder of the executor role. */
    role,
  };
}

export type Executor = ReturnType<typeof createExecutor>;

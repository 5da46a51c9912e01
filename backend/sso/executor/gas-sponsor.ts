/**
 * The gas tank at work (decision 0038). A managed wallet without the BNB for an action's gas gets a quote: the gas the
 * tank will send, and the fee the wallet pays for it in a token, fixed for the review. Confirming the quote counts it
 * against the budgets (gas-tank.ts) under one lock per day, and the action runs with three more steps around its
 * own: the tank's BNB transfer first, the wallet's fee transfer next, and the unused gas sent back to the tank last.
 */
import { randomBytes } from "node:crypto";
import type { Address, LocalAccount, PublicClient } from "viem";
import type { Kysely } from "kysely";
import { gameTokenAbi } from "../../../contracts/generated/abi";
import { type ActionName, type ActionParams, type ActionRequest, FEE_TOKENS, type FeeToken, type GasQuote } from "~core/api/actions";
import { lockSubject } from "../../db/sql";
import { ApiError } from "../../http";
import type { Database } from "../../types";
import type { GasQuotesTable } from "../shared/tables";
import type { Contracts } from "./allowlist";
import {
  budgetRefusal,
  chooseFeeToken,
  DEFAULT_GAS_TANK_POLICY,
  feeWei,
  type GasTankPolicy,
  noTokenForFee,
  QUOTE_UNKNOWN,
  quoteExpired,
  type SponsoredToday,
  tankDry,
  TOPUP_GAS,
  topUpWei,
  utcDay,
} from "./gas-tank";
import type { PriceSource } from "./gas-prices";
import { incomingOf, sponsoredSteps, spendsOf, TOKEN_CONTRACT } from "./gas-plan";
import type { PlannedStep } from "./plan";
import type { ExecutorPolicy } from "./policy";

export interface GasTankConfig {
  /** The operator's wallet that sends the gas (GAS_TANK_KEY). */
  account: LocalAccount;
  prices: PriceSource;
  policy?: GasTankPolicy;
  /** Where fees in tokens go; the tank's address by default. */
  feeReceiver?: Address;
}

const GWEI = 10n ** 9n;

function wire(row: GasQuotesTable, now = new Date()): GasQuote {
  return {
    id: row.id,
    action: row.action as ActionName,
    params: JSON.parse(row.params) as ActionParams[ActionName],
    labels: JSON.parse(row.labels) as string[],
    token: row.token,
    fee: row.fee,
    gas: row.gas,
    spends: row.spends,
    expiresAt: row.expires_at,
    status: row.execution_id ? "confirmed" : row.expires_at <= now.toISOString() ? "expired" : "open",
    executionId: row.execution_id,
  };
}

export function createGasSponsor({
  db,
  client,
  contracts,
  tank,
  executorPolicy,
}: {
  db: Kysely<Database>;
  client: PublicClient;
  contracts: Contracts;
  tank: GasTankConfig;
  executorPolicy: ExecutorPolicy;
}) {
  const policy = tank.policy ?? DEFAULT_GAS_TANK_POLICY;
  const tankAddress = tank.account.address;
  const feeReceiver = tank.feeReceiver ?? tankAddress;

  /** The gas sponsored on `day` (of one account, when given) in wei, and how many actions, of all kinds or of `action`. */
  async function sponsoredOn(trx: Kysely<Database>, day: string, { userId, action }: { userId?: number; action?: string } = {}) {
    let query = trx
      .selectFrom("gas_sponsorships")
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<string>("gas_gwei"), eb.lit(0)).as("gwei"),
        action === undefined
          ? eb.fn.countAll<string>().as("actions")
          : eb.fn.coalesce(eb.fn.sum<string>(eb.case().when("action", "=", action).then(1).else(0).end()), eb.lit(0)).as("actions"),
      ])
      .where("day", "=", day);
    if (userId !== undefined) query = query.where("user_id", "=", userId);
    const row = await query.executeTakeFirstOrThrow();
    return { wei: BigInt(row.gwei ?? 0) * GWEI, actions: Number(row.actions ?? 0) };
  }

  async function sponsoredToday(trx: Kysely<Database>, userId: number, action: string, day: string): Promise<SponsoredToday> {
    const [account, site] = await Promise.all([sponsoredOn(trx, day, { userId, action }), sponsoredOn(trx, day)]);
    return { accountWei: account.wei, actionCount: account.actions, siteWei: site.wei };
  }

  /** Whether the account bought something with money: a paid card order, or a purchase its wallet mined. */
  async function hasPaidPurchase(userId: number): Promise<boolean> {
    const [card, mined] = await Promise.all([
      db.selectFrom("store_orders").select("id").where("user_id", "=", userId).where("paid_at", "is not", null).limit(1).executeTakeFirst(),
      db
        .selectFrom("action_executions")
        .select("seq")
        .where("user_id", "=", userId)
        .where("action", "in", ["lootbox.buy", "trade.buy"])
        .where("status", "=", "mined")
        .limit(1)
        .executeTakeFirst(),
    ]);
    return Boolean(card || mined);
  }

  async function tankBalance(): Promise<bigint> {
    return client.getBalance({ address: tankAddress });
  }

  return {
    tankAddress,
    feeReceiver,
    policy,
    tankBalance,

    /**
     * The fee to review for an action the wallet cannot pay the gas of, stored until it expires; the same open quote
     * again for the same request. A refusal in words (ApiError 400) when the tank will not cover it.
     */
    async quote(
      userId: number,
      wallet: Address,
      request: ActionRequest,
      steps: readonly PlannedStep[],
      gasPrice: bigint,
    ): Promise<GasQuote> {
      const params = JSON.stringify(request.params);
      const now = new Date();
      const open = await db
        .selectFrom("gas_quotes")
        .selectAll()
        .where("user_id", "=", userId)
        .where("idempotency_key", "=", request.idempotencyKey)
        .where("execution_id", "is", null)
        .where("expires_at", ">", now.toISOString())
        .orderBy("created_at", "desc")
        .executeTakeFirst();
      if (open && open.action === request.action && open.params === params) return wire(open, now);

      const gas = topUpWei(
        steps.map((step) => step.gas),
        gasPrice,
        executorPolicy.gasPriceHeadroomPercent,
      );
      const refusal = budgetRefusal(await sponsoredToday(db, userId, request.action, utcDay(now)), gas, policy);
      if (refusal) throw new ApiError(400, refusal);
      if ((await tankBalance()) < gas + TOPUP_GAS * gasPrice) throw new ApiError(400, tankDry(gas));

      const spends = spendsOf(steps, contracts);
      const [rates, balances] = await Promise.all([
        Promise.all(FEE_TOKENS.map(async (token) => [token, await tank.prices.tokenWeiPerBnb(token)] as const)),
        Promise.all(
          FEE_TOKENS.map(
            async (token) =>
              [
                token,
                await client.readContract({
                  address: contracts[TOKEN_CONTRACT[token]],
                  abi: gameTokenAbi,
                  functionName: "balanceOf",
                  args: [wallet],
                }),
              ] as const,
          ),
        ),
      ]);
      const fees = Object.fromEntries(rates.map(([token, rate]) => [token, feeWei(gas, rate)])) as Record<FeeToken, bigint>;
      const spent = FEE_TOKENS.find((token) => (spends[token] ?? 0n) > 0n) ?? null;
      const held = Object.fromEntries(balances) as Record<FeeToken, bigint>;
      const incoming = incomingOf(steps, contracts);
      const withIncoming = Object.fromEntries(FEE_TOKENS.map((name) => [name, held[name] + (incoming[name] ?? 0n)])) as Record<
        FeeToken,
        bigint
      >;
      let token =
        chooseFeeToken(spent, held, spends, (name) => fees[name]) ??
        chooseFeeToken(FEE_TOKENS.find((name) => incoming[name]) ?? null, withIncoming, spends, (name) => fees[name]);
      let fee = token ? fees[token] : 0n;
      if (!token) {
        // A paying customer with no token to pay in: the site covers the fee, within the same budgets.
        if (!(await hasPaidPurchase(userId))) {
          throw new ApiError(400, noTokenForFee(FEE_TOKENS.map((name) => ({ token: name, fee: fees[name] }))));
        }
        token = spent ?? "FIRE";
        fee = 0n;
      }
      const row: GasQuotesTable = {
        id: randomBytes(16).toString("hex"),
        user_id: userId,
        wallet,
        idempotency_key: request.idempotencyKey,
        action: request.action,
        params,
        labels: JSON.stringify(steps.map((step) => step.label)),
        token,
        fee: fee.toString(),
        spends: (spends[token] ?? 0n).toString(),
        gas: gas.toString(),
        gas_price: gasPrice.toString(),
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + policy.quoteTtlMs).toISOString(),
        execution_id: null,
      };
      await db.insertInto("gas_quotes").values(row).execute();
      return wire(row, now);
    },

    /** The caller's quote, or null (another account's is as unknown as a made-up id). */
    async find(userId: number, id: string): Promise<GasQuote | null> {
      const row = await db.selectFrom("gas_quotes").selectAll().where("id", "=", id).executeTakeFirst();
      return row && row.user_id === userId ? wire(row) : null;
    },

    /** The request a quote confirms, once it is still open and the caller's; a refusal in words otherwise. */
    async confirmable(userId: number, id: string): Promise<{ request: ActionRequest; quote: GasQuotesTable }> {
      const row = await db.selectFrom("gas_quotes").selectAll().where("id", "=", id).executeTakeFirst();
      if (!row || row.user_id !== userId) throw new ApiError(404, QUOTE_UNKNOWN);
      if (!row.execution_id && row.expires_at <= new Date().toISOString()) throw new ApiError(409, quoteExpired(policy.quoteTtlMs));
      const request = {
        action: row.action,
        params: JSON.parse(row.params) as ActionParams[ActionName],
        idempotencyKey: row.idempotency_key,
      } as ActionRequest;
      return { request, quote: row };
    },

    /**
     * Counts a confirmed quote against the budgets, once per account and idempotency key (a confirmation again finds
     * its sponsorship). One lock per UTC day: two confirmations at a limit run one after the other, and one passes.
     */
    async sponsor(quote: GasQuotesTable): Promise<void> {
      const now = new Date();
      const day = utcDay(now);
      await db.transaction().execute(async (trx) => {
        await lockSubject(trx, `gas_tank:${day}`);
        const done = await trx
          .selectFrom("gas_sponsorships")
          .select("id")
          .where("user_id", "=", quote.user_id)
          .where("idempotency_key", "=", quote.idempotency_key)
          .executeTakeFirst();
        if (done) return;
        const refusal = budgetRefusal(await sponsoredToday(trx, quote.user_id, quote.action, day), BigInt(quote.gas), policy);
        if (refusal) throw new ApiError(400, refusal);
        await trx
          .insertInto("gas_sponsorships")
          .values({
            user_id: quote.user_id,
            idempotency_key: quote.idempotency_key,
            quote_id: quote.id,
            action: quote.action,
            day,
            gas_gwei: Number((BigInt(quote.gas) + GWEI - 1n) / GWEI),
            fee_token: quote.token,
            fee_wei: quote.fee,
            created_at: now.toISOString(),
          })
          .execute();
      });
    },

    /** What the metrics show: the tank's balance, its alert level, and what it sponsored today (UTC). */
    async state(): Promise<{ balanceWei: bigint; lowBalanceWei: bigint; todayWei: bigint; todayActions: number }> {
      const [balanceWei, today] = await Promise.all([tankBalance(), sponsoredOn(db, utcDay(new Date()))]);
      return { balanceWei, lowBalanceWei: policy.lowBalanceWei, todayWei: today.wei, todayActions: today.actions };
    },

    /** The quote's execution, once queued. */
    async confirmed(quoteId: string, executionId: string): Promise<void> {
      await db
        .updateTable("gas_quotes")
        .set({ execution_id: executionId })
        .where("id", "=", quoteId)
        .where("execution_id", "is", null)
        .execute();
    },

    /**
     * The execution's steps with the tank's gas, the fee and the refund around the action's own. The fee goes first
     * when the wallet holds it now besides what the action spends, else after a claim that brings it; else the quote
     * can no longer be paid, in words.
     */
    async steps(quote: GasQuotesTable, steps: readonly PlannedStep[]): Promise<PlannedStep[]> {
      const fee = BigInt(quote.fee);
      let feeAfter = false;
      if (fee > 0n) {
        const held = await client.readContract({
          address: contracts[TOKEN_CONTRACT[quote.token]],
          abi: gameTokenAbi,
          functionName: "balanceOf",
          args: [quote.wallet as Address],
        });
        const spends = spendsOf(steps, contracts)[quote.token] ?? 0n;
        if (held < spends + fee) {
          if (held + (incomingOf(steps, contracts)[quote.token] ?? 0n) < spends + fee) {
            throw new ApiError(400, noTokenForFee([{ token: quote.token, fee }]));
          }
          feeAfter = true;
        }
      }
      return sponsoredSteps(steps, {
        feeAfter,
        wallet: quote.wallet as Address,
        tank: tankAddress,
        gas: BigInt(quote.gas),
        token: quote.token,
        fee: BigInt(quote.fee),
        feeReceiver,
        contracts,
      });
    },
  };
}

export type GasSponsor = ReturnType<typeof createGasSponsor>;

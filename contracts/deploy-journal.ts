/**
 * The operator deployment's journal (decision 0026): each transaction is signed and written to `<out>.journal.json`
 * before it is broadcast, so a run stopped anywhere resumes from the journal and the chain: a journaled transaction is
 * waited for (or broadcast again as the same bytes), never signed anew, so no contract is deployed twice. With it, the
 * deployer's client and its RPC requests, tried again while a node is busy rather than refusing.
 */
import fs from "node:fs";
import {
  BaseError,
  createWalletClient,
  defineChain,
  ExecutionRevertedError,
  InsufficientFundsError,
  keccak256,
  NonceTooLowError,
  publicActions,
  RpcRequestError,
  TransactionReceiptNotFoundError,
  type Address,
  type Hash,
  type Hex,
  type TransactionReceipt,
  type TransactionSerializable,
  type Transport,
} from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import type { GameTokens } from "./wiring";

/** What a deployment was started with: a rerun with other terms would mix two deployments. */
export interface JournalPlan {
  chainId: number;
  deployer: Address;
  owner: Address;
  tokens: Partial<GameTokens>;
  claimSigner: Address;
  storeMinter: Address;
  receipt: Address;
  metadataUrl: string;
  sourcesHash: string;
}

export interface JournalStep {
  step: string;
  nonce: number;
  hash: Hash;
  /** The signed transaction, broadcast again as it is when it never reached a block. */
  raw: Hex;
}

export interface Journal {
  plan: JournalPlan;
  /** When the sale and the stake pools open (unix seconds), fixed at the first run. */
  openedAt: string;
  steps: JournalStep[];
}

export function journalFileOf(outFile: string): string {
  return `${outFile}.journal.json`;
}

/**
 * How long the deployer's nonce may be used without our transaction's receipt before it counts as taken by another
 * transaction: a node's state runs ahead of its receipts for a moment, and nodes behind one provider lag each other.
 */
const RECEIPT_LAG_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** JSON-RPC codes of a node that is busy rather than refusing: a limit (429, -32005, QuickNode's -32007) or an internal error. */
const BUSY_CODES = new Set([429, -32005, -32007, -32603]);

/** Errors a retry cannot fix: the node answered, and refused (a revert, short funds, a used nonce…). */
function isDefinitive(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  const answer = error.walk((e) => e instanceof RpcRequestError) as RpcRequestError | null;
  return Boolean(
    error.walk((e) => e instanceof ExecutionRevertedError || e instanceof InsufficientFundsError || e instanceof NonceTooLowError) ||
      (answer && !BUSY_CODES.has(answer.code)),
  );
}

/** A catch handler answering null for a `kind` error (the node does not know the transaction) and rethrowing others. */
function unless(kind: new (...args: never[]) => Error) {
  return (error: unknown): null => {
    if (error instanceof kind) return null;
    throw error;
  };
}

export function writeJson(file: string, value: unknown): void {
  // Written aside and renamed, so a run killed while writing leaves the previous file whole.
  const temporary = `${file}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`);
  fs.renameSync(temporary, file);
}

export type Rpc = <T>(read: () => Promise<T>) => Promise<T>;

/** An RPC request, tried again with backoff past the transport's own retries (a provider down for a minute). */
export function retryingRpc(retryDelayMs: number, log: (message: string) => void): Rpc {
  return async <T>(read: () => Promise<T>): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await read();
      } catch (error) {
        if (isDefinitive(error) || attempt >= 5) throw error;
        log(`RPC request failed (${error instanceof Error ? error.message.split("\n")[0] : String(error)}); retrying`);
        await sleep(retryDelayMs * 2 ** (attempt + 3));
      }
    }
  };
}

/** The deployer's wallet client on chain `chainId`, reading through the same transport. */
export function deployerClient(
  account: PrivateKeyAccount,
  chainId: number,
  rpcUrls: string[],
  transport: Transport,
  pollingIntervalMs: number,
) {
  const chain = defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
    rpcUrls: { default: { http: rpcUrls } },
  });
  const client = createWalletClient({ account, chain, transport, pollingInterval: pollingIntervalMs }).extend(publicActions);
  return client;
}

/**
 * The deployment's transactions in order: this run's step `index` is the journal's step `index` when a previous run
 * journaled it (waited for, never signed again), else a new transaction signed, journaled, then broadcast. `run`
 * resolves with the step's receipt; `signed` counts the transactions this run signed.
 */
export function journaledSteps({
  client,
  account,
  journal,
  journalFile,
  rpc,
  log,
  pollingIntervalMs,
  beforeBroadcast,
}: {
  client: ReturnType<typeof deployerClient>;
  account: PrivateKeyAccount;
  journal: Journal;
  journalFile: string;
  rpc: Rpc;
  log: (message: string) => void;
  pollingIntervalMs: number;
  beforeBroadcast?: (index: number, step: string) => void;
}) {
  const deployer = account.address;
  const saveJournal = () => writeJson(journalFile, journal);

  /** Sends the signed transaction; a node that already has it, or has used its nonce, leaves the verdict to settle(). */
  const broadcast = async ({ raw }: JournalStep) => {
    try {
      await rpc(() => client.sendRawTransaction({ serializedTransaction: raw }));
    } catch (error) {
      // Our own transaction sent before (an answer lost on the way, an earlier run), or another one with its nonce:
      // settle() tells them apart by the receipt.
      const usedNonce = error instanceof BaseError && error.walk((e) => e instanceof NonceTooLowError);
      if (!usedNonce && !/already known|known transaction/i.test(String(error))) throw error;
    }
  };

  /**
   * The step's receipt once mined; broadcast again every minute while it is not, in case a node dropped it, and at
   * once for a step a previous run journaled (it may have stopped before broadcasting).
   */
  const settle = async (entry: JournalStep, { journaledBefore }: { journaledBefore: boolean }): Promise<TransactionReceipt> => {
    let rebroadcastAt = journaledBefore ? Date.now() : Date.now() + 60_000;
    let nonceUsedSince: number | undefined;
    for (;;) {
      const receipt = await rpc(() => client.getTransactionReceipt({ hash: entry.hash }).catch(unless(TransactionReceiptNotFoundError)));
      if (receipt) {
        if (receipt.status !== "success") throw new Error(`step "${entry.step}" (${entry.hash}) reverted`);
        return receipt;
      }
      const mined = await rpc(() => client.getTransactionCount({ address: deployer, blockTag: "latest" }));
      if (mined <= entry.nonce) {
        nonceUsedSince = undefined;
        if (Date.now() >= rebroadcastAt) {
          await broadcast(entry);
          rebroadcastAt = Date.now() + 60_000;
        }
      } else if (Date.now() - (nonceUsedSince ??= Date.now()) > RECEIPT_LAG_MS) {
        throw new Error(
          `nonce ${entry.nonce} of ${deployer} was taken by another transaction than step "${entry.step}" (${entry.hash}): ` +
            "is the deployer key used elsewhere?",
        );
      }
      await sleep(pollingIntervalMs);
    }
  };

  let nextIndex = 0;
  let signed = 0;

  /** The step's journaled transaction, or a new one signed, journaled and broadcast; resolves with its receipt. */
  const run = async (step: string, request: { to?: Address; data: Hex; value?: bigint }): Promise<TransactionReceipt> => {
    const index = nextIndex++;
    const journaled = journal.steps[index];
    if (journaled) {
      if (journaled.step !== step) {
        throw new Error(
          `${journalFile} has step ${index} "${journaled.step}", this run's is "${step}": the journal is not this deployment's`,
        );
      }
      return settle(journaled, { journaledBefore: true });
    }
    const pending = await rpc(() => client.getTransactionCount({ address: deployer, blockTag: "pending" }));
    const previous = journal.steps.at(-1);
    const nonce = Math.max(pending, previous ? previous.nonce + 1 : 0);
    const prepared = await rpc(() => client.prepareTransactionRequest({ ...request, nonce }));
    const raw = await account.signTransaction(prepared as TransactionSerializable);
    const entry: JournalStep = { step, nonce, hash: keccak256(raw), raw };
    journal.steps.push(entry);
    saveJournal();
    signed++;
    beforeBroadcast?.(index, step);
    await broadcast(entry);
    log(`step ${index} sent (nonce ${nonce}): ${step}`);
    return settle(entry, { journaledBefore: false });
  };

  return { run, signed: () => signed };
}

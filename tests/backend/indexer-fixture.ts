/** What the chain indexer suites share: a silent logger to read, and the indexers and stores a test opens, shut after it. */
import { afterEach, vi } from "vitest";
import type { BackendDb } from "../../backend/types";
import type { ChainIndexer } from "../../backend/market/indexer/indexer";

/** A logger that prints nothing and records every call. */
export const quiet = () => ({ info: vi.fn<Console["info"]>(), warn: vi.fn<Console["warn"]>(), error: vi.fn<Console["error"]>() });

/** Lists to put a test's indexers and stores in: after each test the indexers are stopped, then the stores closed. */
export function openedPerTest(): { indexers: ChainIndexer[]; stores: BackendDb[] } {
  const open: { indexers: ChainIndexer[]; stores: BackendDb[] } = { indexers: [], stores: [] };
  afterEach(async () => {
    for (const indexer of open.indexers.splice(0)) await indexer.stop();
    for (const store of open.stores.splice(0)) await store.close();
  });
  return open;
}

/** An executor's execution as the SSO answers it (mined, no transaction), with any field overridden. */
import type { Execution } from "~core/api/actions";

export function testExecution(action: Execution["action"], params: Execution["params"], overrides: Partial<Execution> = {}): Execution {
  return {
    id: "a".repeat(32),
    action,
    params,
    status: "mined",
    steps: [],
    txHash: null,
    blockNumber: null,
    error: null,
    result: null,
    wallet: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    createdAt: "",
    updatedAt: "",
    ...overrides,
  };
}

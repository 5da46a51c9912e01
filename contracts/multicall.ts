/**
 * Multicall3 on a local node: BSC and its testnet have it at MULTICALL3_ADDRESS already, and the server's batched
 * reads (core/chain-transport.ts readableChain) call it there; anvil starts without it.
 */
import fs from "node:fs";
import type { Hex } from "viem";
import { MULTICALL3_ADDRESS } from "~core/chain-transport";

async function rpc<T>(rpcUrl: string, method: string, params: unknown[]): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: T; error?: { message: string } };
  if (answer.error || answer.result === undefined) throw new Error(`${method}: ${answer.error?.message ?? "no result"}`);
  return answer.result;
}

/** Puts Multicall3's runtime code at its canonical address unless code is there already; no transaction, no block. */
export async function installMulticall3(rpcUrl: string): Promise<void> {
  if ((await rpc<Hex>(rpcUrl, "eth_getCode", [MULTICALL3_ADDRESS, "latest"])) !== "0x") return;
  const artifact = new URL("./generated/artifacts/Multicall3.json", import.meta.url);
  const { bytecode } = JSON.parse(fs.readFileSync(artifact, "utf8")) as { bytecode: Hex };
  // A call with creation code and no target answers with the runtime code the constructor would leave.
  const runtime = await rpc<Hex>(rpcUrl, "eth_call", [{ data: bytecode }, "latest"]);
  await rpc(rpcUrl, "anvil_setCode", [MULTICALL3_ADDRESS, runtime]);
}

/**
 * Multicall3 on a local node: BSC and its testnet have it at MULTICALL3_ADDRESS already, and the server's batched
 * reads (core/chain-transport.ts readableChain) call it there; anvil starts without it.
 */
import fs from "node:fs";
import type { Hex } from "viem";
import { MULTICALL3_ADDRESS } from "~core/chain-transport";
import { nodeRpc as rpc } from "./node-rpc";

/** Puts Multicall3's runtime code at its canonical address unless code is there already; no transaction, no block. */
export async function installMulticall3(rpcUrl: string): Promise<void> {
  if ((await rpc<Hex>(rpcUrl, "eth_getCode", [MULTICALL3_ADDRESS, "latest"])) !== "0x") return;
  const artifact = new URL("./generated/artifacts/Multicall3.json", import.meta.url);
  const { bytecode } = JSON.parse(fs.readFileSync(artifact, "utf8")) as { bytecode: Hex };
  // A call with creation code and no target answers with the runtime code the constructor would leave.
  const runtime = await rpc<Hex>(rpcUrl, "eth_call", [{ data: bytecode }, "latest"]);
  await rpc(rpcUrl, "anvil_setCode", [MULTICALL3_ADDRESS, runtime]);
}

/**
 * What a block explorer's source verification needs of the operator's deployment (decision 0026): verify/<Contract>.json
 * beside the Deployment record, per deployed contract, with the standard-JSON input, the compiler version and the
 * constructor arguments.
 */
import fs from "node:fs";
import path from "node:path";
import { encodeAbiParameters, type AbiParameter, type Address } from "viem";
import { selfContainedSources, standardJsonInput } from "./compile";
import { writeJson } from "./deploy-journal";
import { SOURCE_HASH_FILE, type SourceHashRecord } from "./source-hash";
import { CONTRACT_ABIS, type ContractName } from "./wiring";

export function verifyDirOf(outFile: string): string {
  return path.join(path.dirname(outFile), "verify");
}

/** BscScan wants the compiler as "v0.8.x+commit.abcdef12". */
function explorerCompilerVersion(): string {
  const { solc } = JSON.parse(fs.readFileSync(SOURCE_HASH_FILE, "utf8")) as SourceHashRecord;
  return `v${solc.replace(/\.Emscripten.*$/, "")}`;
}

/** verify/<Contract>.json per deployed contract (GameToken-<SYMBOL>.json for the token copies). */
export function writeVerificationInputs(
  verifyDir: string,
  chainId: number,
  contracts: Record<string, Address>,
  deployments: Map<Address, { contract: ContractName; args: readonly unknown[] }>,
): void {
  fs.mkdirSync(verifyDir, { recursive: true });
  const input = standardJsonInput(selfContainedSources());
  const compilerVersion = explorerCompilerVersion();
  for (const [key, address] of Object.entries(contracts)) {
    const deployed = deployments.get(address);
    if (!deployed) continue;
    const { contract, args } = deployed;
    const constructor = CONTRACT_ABIS[contract].find((item) => item.type === "constructor");
    const inputs = (constructor?.inputs ?? []) as readonly AbiParameter[];
    const file = contract === "GameToken" ? `GameToken-${key.toUpperCase()}` : contract;
    writeJson(path.join(verifyDir, `${file}.json`), {
      contractName: `${contract}.sol:${contract}`,
      address,
      chainId,
      compilerVersion,
      // ABI-encoded, without 0x, as BscScan's form and API take them.
      constructorArguments: encodeAbiParameters(inputs, args).slice(2),
      input,
    });
  }
}

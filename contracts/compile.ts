/**
 * Compiles contracts/src with solc-js and writes the committed build outputs, all under contracts/generated/:
 * artifacts/<Contract>.json (abi + bytecode, read by deploy.ts), abi.ts (typed ABIs for viem) and
 * source-hash.json (the sources hash they were built from, see source-hash.ts).
 * Run by hand after changing a .sol file: `npx tsx contracts/compile.ts`. Never runs at app start.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequire } from "node:module";
import { ARTIFACTS_DIR, GENERATED_DIR, SOURCE_DIR, SOURCE_HASH_FILE, type SourceHashRecord, readSources, sourcesHash } from "./source-hash";

interface Solc {
  version(): string;
  compile(input: string): string;
}

const nodeModules = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "node_modules");

/** Deployable contracts, each with the export name of its ABI in abi.ts. */
export const DEPLOYABLE = {
  GameToken: "gameTokenAbi",
  BlindBox: "blindBoxAbi",
  BlindBoxSale: "blindBoxSaleAbi",
  BlindBoxOpener: "blindBoxOpenerAbi",
  SparkCard: "sparkCardAbi",
  SparkItems: "sparkItemsAbi",
  AssetManager: "assetManagerAbi",
  FireStaking: "fireStakingAbi",
  StarshipManager: "starshipManagerAbi",
  Trading: "tradingAbi",
  RewardManager: "rewardManagerAbi",
  // Not deployed by us on BSC (it is there already): the local chain gets its code (contracts/multicall.ts).
  Multicall3: "multicall3Abi",
} as const;

interface AbiItem {
  type: string;
  name?: string;
  inputs?: unknown[];
}

interface SolcOutput {
  errors?: { severity: "error" | "warning" | "info"; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: AbiItem[]; evm: { bytecode: { object: string } } }>>;
}

function findImport(importPath: string): { contents: string } | { error: string } {
  const candidates = [path.join(SOURCE_DIR, importPath), path.join(nodeModules, importPath)];
  for (const file of candidates) {
    if (fs.existsSync(file)) return { contents: fs.readFileSync(file, "utf8") };
  }
  return { error: `not found: ${importPath}` };
}

/** solc's standard-JSON input for `sources` with the settings the committed artifacts were built with. */
export function standardJsonInput(sources: Record<string, { content: string }>) {
  return {
    language: "Solidity",
    sources,
    settings: {
      evmVersion: "cancun",
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
    },
  };
}

const IMPORT = /\bimport\s+(?:[^"';]*?\bfrom\s+)?["']([^"']+)["']/g;

/**
 * contracts/src/*.sol plus every file they import, transitively, under the names solc gives them (a relative import
 * is resolved against its importer's name). The artifacts are compiled from exactly this input, and the operator's
 * deploy hands it to block explorers' verifiers (deploy-operator.ts): solc numbers source units in the order it reads
 * them, and that order reaches the ABI (two errors named alike) and so the metadata hash at the bytecode's end; with an
 * import callback it reads the imports later than a verifier given every file, and BlindBoxSale came out different.
 */
export function selfContainedSources(): Record<string, { content: string }> {
  const sources = readSources();
  const pending = Object.keys(sources);
  for (let unit = pending.pop(); unit !== undefined; unit = pending.pop()) {
    // Comments may quote import lines; only the code's imports count.
    const code = sources[unit]!.content.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
    for (const [, imported] of code.matchAll(IMPORT)) {
      const name = imported!.startsWith(".") ? path.posix.join(path.posix.dirname(unit), imported!) : imported!;
      if (sources[name]) continue;
      const found = findImport(name);
      if ("error" in found) throw new Error(`${unit} imports ${imported}: ${found.error}`);
      sources[name] = { content: found.contents };
      pending.push(name);
    }
  }
  return sources;
}

function compile(solc: Solc, sources: Record<string, { content: string }>): SolcOutput {
  const input = standardJsonInput(sources);
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const problems = output.errors ?? [];
  for (const problem of problems.filter((p) => p.severity !== "error")) console.warn(problem.formattedMessage);
  const errors = problems.filter((p) => p.severity === "error");
  if (errors.length > 0) {
    throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join("\n")}`);
  }
  return output;
}

function errorKey(item: AbiItem): string {
  return `${item.name}(${JSON.stringify(item.inputs)})`;
}

function main(): void {
  const started = performance.now();
  // solc ships CommonJS without types, and loading it takes a while: only when compiling.
  const solc = createRequire(import.meta.url)("solc") as Solc;
  const sources = readSources();
  const output = compile(solc, selfContainedSources());
  const hash = sourcesHash(sources);
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });

  const abiLines = [
    "/* eslint-disable */",
    "// GENERATED by contracts/compile.ts (solc-js) from contracts/src/*.sol: do not edit.",
    "// Regenerate with `npx tsx contracts/compile.ts` after changing a .sol file.",
    `// Sources hash ${hash} (contracts/generated/source-hash.json; a test checks it against contracts/src).`,
    "",
  ];
  // Reverts bubble up from inner calls (box, card, token), so one union of every error lets viem decode any of them.
  const allErrors = new Map<string, AbiItem>();

  for (const [name, exportName] of Object.entries(DEPLOYABLE)) {
    const contract = output.contracts[`${name}.sol`]?.[name];
    if (!contract) throw new Error(`${name} missing from the solc output`);
    const artifact = {
      contractName: name,
      sourcesHash: hash,
      abi: contract.abi,
      bytecode: `0x${contract.evm.bytecode.object}`,
    };
    fs.writeFileSync(path.join(ARTIFACTS_DIR, `${name}.json`), `${JSON.stringify(artifact, null, 2)}\n`);
    abiLines.push(`export const ${exportName} = ${JSON.stringify(contract.abi, null, 2)} as const;`, "");
    for (const item of contract.abi.filter((i) => i.type === "error")) allErrors.set(errorKey(item), item);
  }

  const errors = [...allErrors.values()].sort((a, b) => errorKey(a).localeCompare(errorKey(b)));
  abiLines.push(
    "/** Every custom error of the contracts above, for decoding a revert whichever contract raised it. */",
    `export const sparkErrorsAbi = ${JSON.stringify(errors, null, 2)} as const;`,
    "",
  );
  fs.writeFileSync(path.join(GENERATED_DIR, "abi.ts"), abiLines.join("\n"));
  const record: SourceHashRecord = { sourcesHash: hash, sources: Object.keys(sources), solc: solc.version() };
  fs.writeFileSync(SOURCE_HASH_FILE, `${JSON.stringify(record, null, 2)}\n`);

  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `solc ${solc.version()}: ${Object.keys(DEPLOYABLE).length} artifacts, abi.ts and source-hash.json written to contracts/generated in ${seconds} s`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();

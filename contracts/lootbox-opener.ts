/**
 * The opener as the box registry names it (product §7: queryOpenerAddr, assetAddr, targetTypeOfBox), read from the
 * chain instead of the deployment record, for the server's pages, the SSO executor and the browser island alike.
 * The registry's opener and the opener's asset are read once per process (per page in the browser): the registry
 * changes its opener only by an admin transaction, after which the process is restarted.
 */
import type { Address, Client } from "viem";
import { readContract } from "viem/actions";
import { openByCount } from "~core/sale-terms";
import { blindBoxAbi, blindBoxOpenerAbi } from "./generated/abi";

export interface OpenerContracts {
  /** The opener the registry names. */
  opener: Address;
  /** The NFT contract the opened items are minted on (the opener's assetAddr). */
  asset: Address;
}

const resolved = new Map<string, Promise<OpenerContracts>>();

/** The registry's opener and that opener's asset contract; a failed read is not kept, so the next call asks again. */
export function readOpener(client: Client, box: Address): Promise<OpenerContracts> {
  const key = box.toLowerCase();
  let found = resolved.get(key);
  if (!found) {
    found = (async () => {
      const opener = await readContract(client, { address: box, abi: blindBoxAbi, functionName: "queryOpenerAddr" });
      const asset = await readContract(client, { address: opener, abi: blindBoxOpenerAbi, functionName: "assetAddr" });
      return { opener, asset };
    })();
    found.catch(() => resolved.delete(key));
    resolved.set(key, found);
  }
  return found;
}

/** The nftType code a box type mainly yields (0 hero card, 4 spaceship), as the opener says. */
export function readTargetType(client: Client, opener: Address, typeBox: number): Promise<number> {
  return readContract(client, { address: opener, abi: blindBoxOpenerAbi, functionName: "targetTypeOfBox", args: [BigInt(typeBox)] });
}

/**
 * The opener call for "open `count` boxes of `typeBox`" without naming ids, for viem to encode or simulate:
 * batchOpen(count) when the wallet holds boxes of that type only, else batchOpenOfType (core/sale-terms.ts).
 */
export function openCountCall(opener: Address, typeBox: number, count: number, heldTypes: readonly number[]) {
  const call = openByCount(typeBox, count, heldTypes);
  return call.functionName === "batchOpen"
    ? ({ address: opener, abi: blindBoxOpenerAbi, functionName: "batchOpen", args: call.args } as const)
    : ({ address: opener, abi: blindBoxOpenerAbi, functionName: "batchOpenOfType", args: call.args } as const);
}

/** The islands' way to set the connected address: with the short form the header shows (see wallet-store.ts). */
import { shortAddress } from "~core/address";
import { setConnectedWallet } from "./wallet-store";

export function setConnectedAddress(address: string | null) {
  setConnectedWallet(address === null ? null : { address, short: shortAddress(address) });
}

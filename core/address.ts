/** Wallet addresses as text: comparing and shortening. Dependency-free, so every page's bundle may use it. */

/** Two spellings of one address (any case); false when either is missing. Checksums are not checked here. */
export function sameAddress(a: string | null | undefined, b: string | null | undefined): boolean {
  return Boolean(a && b) && a!.toLowerCase() === b!.toLowerCase();
}

/** product §2's short form: the first 6 and the last 6 characters, `0x1234…abcdef`; short text stays whole. */
export function shortAddress(address: string): string {
  return address.length <= 13 ? address : `${address.slice(0, 6)}…${address.slice(-6)}`;
}

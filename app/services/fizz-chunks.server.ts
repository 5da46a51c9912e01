/**
 * React 18's streaming renderer writes the page into 2 KB views. When a multi-byte character (✕, ·, —) does not fit
 * at a view's end, it sends the whole view anyway, the 1 to 3 bytes it did not write still zero: U+0000 in the page
 * (react#24985; fixed by react#26228, in React 19 only). A full view never ends in a zero otherwise: our HTML holds
 * no U+0000.
 */
export const FIZZ_VIEW_BYTES = 2048;
const MAX_UNWRITTEN = 3;

/** The bytes React wrote of `chunk`, without the zeros of a view it sent before filling it. */
export function writtenPart(chunk: Uint8Array): Uint8Array {
  if (chunk.byteLength !== FIZZ_VIEW_BYTES) return chunk;
  let end = chunk.byteLength;
  while (end > chunk.byteLength - MAX_UNWRITTEN && chunk[end - 1] === 0) end -= 1;
  return end === chunk.byteLength ? chunk : chunk.subarray(0, end);
}

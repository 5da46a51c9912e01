/** How the fuzzer writes drawn text into a request: percent-encoded, raw in the request line, or as a header value. */
import type { Rng } from "./rng";

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Percent-encodes the UTF-8 bytes of `text` (lone surrogates become U+FFFD, as a browser would send them). */
export function pct(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const char = String.fromCharCode(byte);
    out += UNRESERVED.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Text as raw bytes in a request line: UTF-8 bytes as latin1, without the characters no client may send there. */
export function rawPathText(text: string): string {
  return Buffer.from(text, "utf8")
    .toString("latin1")
    .replace(/[\u0000-\u0020\u007f]/g, (char) => `%${char.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/** A value as a header may carry it (Node refuses control characters). */
export function headerText(text: string): string {
  return Buffer.from(text, "utf8")
    .toString("latin1")
    .replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, "");
}

/** Mostly properly encoded; sometimes raw, so invalid escapes (`%ff`, `%zz`) and bare `&`/`=` reach the parser. */
export function encodeValue(r: Rng, text: string): string {
  return r.chance(0.1) ? rawPathText(text) : pct(text);
}

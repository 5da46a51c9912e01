const DEFAULT_REDIRECT = "/home";
const BASE = "http://spark.invalid";
/** Longer than any page of ours, with its nested `back` and `redirect`; also bounds the decoding below. */
export const MAX_REDIRECT_LENGTH = 4096;
/** Our own URLs nest a redirect in a redirect a few times at most (Re-login → /login → detail → back). */
const MAX_DECODING_ROUNDS = 8;

/** Controls (tab, newline… which URL parsers drop), invisible format characters, line separators, backslashes. */
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\\]/u;
/** Characters that look like, or are read by some software as, a slash or a backslash. */
const SLASH_LIKE = /[\u0338\u2044\u2215\u2216\u27cb\u27cd\u29f5\u29f8\u29f9\u2afb\u2afd\u3033\u3035\ufe68\uff0f\uff3c]/u;

/** Decodes every valid %XX as UTF-8, leaving a lone `%` as it is (a search for "100%" is no attack). */
function percentDecode(text: string): string {
  if (!text.includes("%")) return text;
  const bytes = new TextEncoder().encode(text);
  const out = new Uint8Array(bytes.length);
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    const hex = i + 2 < bytes.length ? String.fromCharCode(bytes[i + 1], bytes[i + 2]) : "";
    if (bytes[i] === 0x25 && /^[0-9a-fA-F]{2}$/.test(hex)) {
      out[length++] = parseInt(hex, 16);
      i += 2;
    } else out[length++] = bytes[i];
  }
  return new TextDecoder().decode(out.subarray(0, length));
}

function hasTrickCharacters(text: string): boolean {
  const compatible = text.normalize("NFKC");
  const slashes = (value: string) => value.split("/").length;
  return (
    FORBIDDEN.test(text) ||
    SLASH_LIKE.test(text) ||
    SLASH_LIKE.test(compatible) ||
    FORBIDDEN.test(compatible) ||
    slashes(compatible) !== slashes(text)
  );
}

/**
 * The path as a browser reads it (dot segments resolved, `%2e` included), or null when that leaves the site or
 * starts with `//`: such a path, echoed back by any server as a Location, is protocol-relative.
 */
function normalise(path: string): string | null {
  try {
    const url = new URL(path, BASE);
    if (url.origin !== BASE || url.pathname.startsWith("//")) return null;
    return url.pathname + url.search + url.hash;
  } catch {
    return null;
  }
}

/**
 * The one gate for every redirect built from user input: `to` as a same-site path, or `fallback`. The result
 * starts with one `/`, and stays a same-site path after any number of further percent-decodings and URL
 * normalisations, so no browser, proxy or later redirect reads it as another host. Anything with controls,
 * backslashes or slash lookalikes, raw or encoded, falls back.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = DEFAULT_REDIRECT): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.length > MAX_REDIRECT_LENGTH || hasTrickCharacters(to)) return fallback;
  const result = normalise(to);
  if (result === null) return fallback;
  let form = result;
  for (let round = 0; round < MAX_DECODING_ROUNDS; round++) {
    const decoded = percentDecode(form);
    if (decoded === form) return result;
    if (hasTrickCharacters(decoded)) return fallback;
    const next = normalise(decoded);
    if (next === null) return fallback;
    // The parser re-encodes what decoding exposed (a space in a query): nothing changes from here on.
    if (next === form) return result;
    form = next;
  }
  return fallback;
}

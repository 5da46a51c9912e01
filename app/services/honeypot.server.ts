import { Honeypot } from "remix-utils/honeypot/server";
import { getEnv } from "./env.server";

/** The hidden fields' names (remix-utils' defaults, named here so the check below can ask for them). */
const NAME_FIELD = "name__confirm";
const VALID_FROM_FIELD = "from__confirm";

let honeypot: Honeypot | undefined;
export function getHoneypot() {
  honeypot ??= new Honeypot({
    encryptionSeed: getEnv().sessionSecrets[0],
    nameFieldName: NAME_FIELD,
    validFromFieldName: VALID_FROM_FIELD,
  });
  return honeypot;
}

const SPAM = "Form not submitted properly";

/**
 * Bots fill the hidden field, post too fast, or leave the fields out: answer 400 and do nothing. Only for a
 * form that renders the fields (HoneypotFields): a browser always posts them, the empty one included.
 */
export function checkHoneypot(formData: FormData) {
  // remix-utils skips its check when both fields are absent, which is just what a bot posting by hand sends.
  if (!formData.has(NAME_FIELD) || !formData.has(VALID_FROM_FIELD)) throw new Response(SPAM, { status: 400 });
  try {
    getHoneypot().check(formData);
  } catch {
    // SpamError, or a timestamp that does not decrypt (crypto-js throws "Malformed UTF-8 data"): a forged form either way.
    throw new Response(SPAM, { status: 400 });
  }
}

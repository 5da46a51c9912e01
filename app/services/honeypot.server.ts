import { Honeypot } from "remix-utils/honeypot/server";
import { getEnv } from "./env.server";

/** The hidden fields' names (remix-utils' defaults, named here so the check below can ask for them). */
const NAME_FIELD = "name__confirm";
const VALID_FROM_FIELD = "from__confirm";

/**
 * AES-CBC here carries no MAC, so garbage can "decrypt" to a short run of bytes such as "7" (about 3 posts in
 * 10,000). Only what getInputProps wrote, Date.now() in decimal, counts as a timestamp; anything else, or a
 * decryption that throws, is no timestamp at all.
 */
class StrictHoneypot extends Honeypot {
  protected decrypt(value: string): string {
    try {
      const time = super.decrypt(value);
      return /^\d{13}$/.test(time) ? time : "";
    } catch {
      return "";
    }
  }
}

let honeypot: Honeypot | undefined;
export function getHoneypot() {
  honeypot ??= new StrictHoneypot({
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
    // SpamError: a forged form.
    throw new Response(SPAM, { status: 400 });
  }
}

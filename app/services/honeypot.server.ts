import { Honeypot, SpamError } from "remix-utils/honeypot/server";
import { getEnv } from "./env.server";

let honeypot: Honeypot | undefined;
export function getHoneypot() {
  honeypot ??= new Honeypot({ encryptionSeed: getEnv().sessionSecrets[0] });
  return honeypot;
}

/** Bots fill the hidden field (or post too fast): answer 400 and do nothing. */
export function checkHoneypot(formData: FormData) {
  try {
    getHoneypot().check(formData);
  } catch (error) {
    if (error instanceof SpamError) throw new Response("Form not submitted properly", { status: 400 });
    throw error;
  }
}

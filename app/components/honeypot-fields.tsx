import { HoneypotInputs, HoneypotProvider } from "remix-utils/honeypot/react";
import type { HoneypotInputProps } from "remix-utils/honeypot/server";

/**
 * The spam trap of the sign-up and password-reset forms. Its props come from the loader of the page that has
 * such a form, so the other pages do not pay for encrypting a timestamp on every request.
 */
export function HoneypotFields({ honeypot }: { honeypot: HoneypotInputProps }) {
  return (
    <HoneypotProvider {...honeypot}>
      <HoneypotInputs />
    </HoneypotProvider>
  );
}

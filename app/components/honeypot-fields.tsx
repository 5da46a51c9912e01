import type { HoneypotInputProps } from "remix-utils/honeypot/server";

const LABEL = "Please leave this field blank";

/**
 * The spam trap of the sign-up and password-reset forms. Its props come from the loader of the page that has
 * such a form, so the other pages do not pay for encrypting a timestamp on every request. remix-utils' own inputs
 * say autocomplete="nope", which is no HTML; these are the same fields with "off".
 */
export function HoneypotFields({ honeypot }: { honeypot: HoneypotInputProps }) {
  const { nameFieldName = "name__confirm", validFromFieldName = "from__confirm", encryptedValidFrom } = honeypot;
  return (
    <div id={`${nameFieldName}_wrap`} style={{ display: "none" }} aria-hidden="true">
      <label htmlFor={nameFieldName}>{LABEL}</label>
      <input id={nameFieldName} name={nameFieldName} type="text" defaultValue="" autoComplete="off" tabIndex={-1} />
      {validFromFieldName && encryptedValidFrom ? (
        <>
          <label htmlFor={validFromFieldName}>{LABEL}</label>
          <input
            id={validFromFieldName}
            name={validFromFieldName}
            type="text"
            value={encryptedValidFrom}
            readOnly
            autoComplete="off"
            tabIndex={-1}
          />
        </>
      ) : null}
    </div>
  );
}

import { Form } from "@remix-run/react";

/** Look up any wallet's stakes (no JavaScript needed); with JavaScript a connected browser wallet is looked up by itself. */
export function WalletLookup({ typed, error }: { typed: string; error: string | null }) {
  return (
    <Form method="get" className="flex flex-wrap items-end gap-3" aria-label="Look up a wallet">
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <label htmlFor="lookup-wallet" className="text-sm font-semibold">
          See a wallet's stakes
        </label>
        <input
          id="lookup-wallet"
          name="wallet"
          defaultValue={typed}
          placeholder="0x…"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "lookup-wallet-error" : undefined}
          className="field-input font-mono"
        />
        {error && (
          <p id="lookup-wallet-error" className="text-sm text-red-300">
            {error}
          </p>
        )}
      </div>
      <button type="submit" className="btn-secondary">
        Look up
      </button>
    </Form>
  );
}

import { Meta, Outlet, Scripts } from "@remix-run/react";
// The one module the app's renderer (entry.server.tsx) provides the nonce through.
import { useNonce } from "~/components/nonce";

/** A document and nothing else: no loader, no styles, no header, no footer. */
export default function Root() {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
      </head>
      <body>
        <Outlet />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

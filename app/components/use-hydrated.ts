import { startTransition, useEffect, useState } from "react";

/**
 * False on the server and while hydrating, true after. remix-utils' useHydrated flips in an urgent update, and an
 * urgent update that reaches a Suspense boundary still hydrating (a lazy form whose chunk has not come yet) throws its
 * server HTML out to client rendering (React error #421), and with it what the person had typed. A transition waits
 * for the boundary instead.
 */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => startTransition(() => setHydrated(true)), []);
  return hydrated;
}

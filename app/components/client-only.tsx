import type { ReactNode } from "react";
import { useHydrated } from "./use-hydrated";

/** `children()` once hydrated, `fallback` on the server and before: remix-utils' ClientOnly on our transition-made flag. */
export function ClientOnly({ children, fallback = null }: { children: () => ReactNode; fallback?: ReactNode }) {
  return <>{useHydrated() ? children() : fallback}</>;
}

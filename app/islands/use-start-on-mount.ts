/**
 * An island loaded by a player's click (components/deferred-island.tsx) carries that action out as it mounts: once,
 * even where React runs a mount's effects twice.
 */
import { useEffect, useRef } from "react";

export function useStartOnMount(started: boolean | undefined, start: () => void): void {
  const done = useRef(false);
  useEffect(() => {
    if (!started || done.current) return;
    done.current = true;
    start();
    // Once, as the island mounts: the click that loaded it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

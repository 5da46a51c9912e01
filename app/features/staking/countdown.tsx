/**
 * Time left until a pool's next change, by the chain's clock. The server renders it from the chain's time at
 * the page's block; with JavaScript it ticks every second from there, and once it reaches zero the page's data
 * is read again, so the pool's new status shows without a reload.
 */
import { useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { formatDuration } from "~core/chain-text";

export function Countdown({ at, now, left }: { at: string; now: string; left: string }) {
  const [text, setText] = useState(left);
  const revalidator = useRevalidator();
  useEffect(() => {
    const started = Date.now();
    const remaining = () => Number(BigInt(at) - BigInt(now)) - Math.floor((Date.now() - started) / 1000);
    let reloaded = false;
    const timer = setInterval(() => {
      const seconds = remaining();
      setText(formatDuration(seconds));
      if (seconds <= 0 && !reloaded) {
        reloaded = true;
        clearInterval(timer);
        revalidator.revalidate();
      }
    }, 1000);
    return () => clearInterval(timer);
    // The revalidator changes identity as it runs; the timer restarts only for a new target.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [at, now]);
  return (
    <time dateTime={`PT${Math.max(0, Number(BigInt(at) - BigInt(now)))}S`} data-testid="countdown">
      {text}
    </time>
  );
}

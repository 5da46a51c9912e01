import { useLocation } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";

/**
 * A `<details>` sheet that works with no JavaScript at all. With JavaScript it also moves focus into the
 * panel on open, closes on Escape (returning focus to its button), on a click outside and on navigation.
 */
export function Disclosure({
  summary,
  summaryLabel,
  summaryClassName,
  panelClassName,
  className,
  children,
}: {
  summary: ReactNode;
  summaryLabel?: string;
  summaryClassName?: string;
  panelClassName?: string;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();

  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [location.key]);

  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const summaryEl = details.querySelector("summary");
    const close = (returnFocus: boolean) => {
      if (!details.open) return;
      details.open = false;
      if (returnFocus) summaryEl?.focus();
    };
    const onToggle = () => {
      if (!details.open) return;
      const first = details.querySelector<HTMLElement>(
        "[data-panel] a[href], [data-panel] button:not([disabled]), [data-panel] input, [data-panel] [tabindex]",
      );
      first?.focus();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") close(true);
    };
    const onPointer = (event: PointerEvent) => {
      if (!details.contains(event.target as Node)) close(false);
    };
    details.addEventListener("toggle", onToggle);
    details.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      details.removeEventListener("toggle", onToggle);
      details.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, []);

  return (
    <details ref={ref} className={className}>
      <summary className={summaryClassName} aria-label={summaryLabel}>
        {summary}
      </summary>
      <div data-panel className={panelClassName}>
        {children}
      </div>
    </details>
  );
}

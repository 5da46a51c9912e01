import { useHydrated } from "~/components/use-hydrated";
import { Icon } from "./icons";
import { showToast } from "./notices";

/** Copies `value` with the clipboard API (product §8 toasts). Without JavaScript it is not rendered: the text is selectable. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      className="inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-md text-slate-200 hover:bg-space-700"
      onClick={() => {
        navigator.clipboard.writeText(value).then(
          () => showToast("success", "Copy success"),
          () => showToast("error", "Copy failed"),
        );
      }}
    >
      <Icon name="copy" size={16} />
    </button>
  );
}

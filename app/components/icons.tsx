import sprite from "~/assets/icons.svg";

export type IconName = "menu" | "close" | "wallet" | "user" | "external" | "copy" | "x" | "blog" | "chat" | "message";

/**
 * An icon from the one sprite (app/assets/icons.svg, a hashed file the browser caches for good): each page's
 * JavaScript carries a name, not the drawing. Decorative: the button or link around it has the text.
 */
export function Icon({ name, size = 20 }: { name: IconName; size?: number }) {
  return (
    // An icon keeps its size in a flex row that is short of room: the text beside it truncates instead.
    <svg width={size} height={size} className="shrink-0" aria-hidden="true" focusable="false">
      <use href={`${sprite}#${name}`} />
    </svg>
  );
}

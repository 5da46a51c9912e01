import type { ReactNode } from "react";

/** A marketplace child screen: the parent supplies the tab bar and width. */
export function MarketPage({ title, intro, children }: { title: string; intro?: ReactNode; children?: ReactNode }) {
  return (
    <div className="py-6">
      <h1 className="page-title">{title}</h1>
      {intro && <p className="muted mt-2 max-w-2xl">{intro}</p>}
      <div className="mt-6 flex flex-col gap-6">{children}</div>
    </div>
  );
}

import type { ReactNode } from "react";

export function Page({ title, intro, children, actions }: { title: string; intro?: ReactNode; children?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-5">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="page-title">{title}</h1>
          {intro && <p className="muted mt-2 max-w-2xl">{intro}</p>}
        </div>
        {/* Tab bars and links scroll or wrap inside the page's width instead of widening it on a phone. */}
        {actions && <div className="min-w-0 max-w-full">{actions}</div>}
      </div>
      <div className="mt-8 flex flex-col gap-8">{children}</div>
    </div>
  );
}

export function Section({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  // Linked to by its heading (the offers' page links end in #offers-title): clear of the sticky header.
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId} className="section-title mb-3 scroll-mt-20">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Shown where an action needs a signed-in account. */
export function LoginPrompt({ href, what }: { href: string; what: string }) {
  return (
    <p className="muted">
      <a href={href}>Log in</a> to {what}.
    </p>
  );
}

/**
 * What the spaceship pages share (issue 15): the gate for visitors and unbound accounts, a ship's duration bar and
 * status, the materials list, and the one action control: a server form for a managed wallet (works without
 * JavaScript), the browser-wallet island otherwise. Markup only; the loaders send every figure as text.
 */
import { Form, Link, useNavigation } from "@remix-run/react";
import { lazy, Suspense, type ReactNode } from "react";
import { ClientOnly } from "~/components/client-only";
import { type FormErrors, Hidden, Refused } from "~/features/actions/form-parts";
import { LoginPrompt } from "~/components/page";
import type { ShipIslandAction, ShipIslandChain } from "./spaceship-props";

const ShipActionIsland = lazy(() => import("./spaceship-action.client"));

export type GateView = { state: "visitor"; loginHref: string } | { state: "no-wallet" } | { state: "down" } | { state: "fleet" };

/** Null once there is a fleet to show; else what stands in its way, in words. */
export function FleetGateNotice({ gate, what }: { gate: GateView; what: string }) {
  if (gate.state === "visitor") return <LoginPrompt href={gate.loginHref} what={what} />;
  if (gate.state === "no-wallet") {
    return (
      <p className="muted">
        No wallet is bound to your account yet. <Link to="/login?act=connect&redirect=%2Fspaceship%2Fstorehouse">Bind a wallet</Link> to see
        its ships.
      </p>
    );
  }
  if (gate.state === "down") {
    return (
      <p role="status" className="rounded-md border border-amber-400 bg-amber-950 px-3 py-2 text-sm">
        The chain is not answering right now, so your fleet cannot be shown. Please try again in a moment.
      </p>
    );
  }
  return null;
}

export function DurationBar({ duration, label = "Duration" }: { duration: { text: string; percent: number }; label?: string }) {
  return (
    <div className="flex flex-col gap-1 text-sm">
      <div className="flex justify-between gap-2">
        <span className="text-slate-300">{label}</span>
        <span className="text-white">{duration.text}</span>
      </div>
      <div
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={duration.percent}
        aria-valuetext={duration.text}
        className="h-2 overflow-hidden rounded bg-space-800"
      >
        <div className={`h-full ${duration.percent > 20 ? "bg-emerald-400" : "bg-amber-400"}`} style={{ width: `${duration.percent}%` }} />
      </div>
    </div>
  );
}

const STATUS_LOOK: Record<string, string> = {
  docked: "border-slate-500 text-slate-100",
  exploring: "border-sky-400 text-sky-200",
  "needs-repair": "border-amber-400 text-amber-200",
  "in-game": "border-violet-400 text-violet-200",
};

export function StatusBadge({ status, text }: { status: string; text: string }) {
  return (
    <span className={`rounded-full border px-2 py-0.5 text-xs font-semibold ${STATUS_LOOK[status] ?? ""}`} data-testid="ship-status">
      {text}
    </span>
  );
}

export function MaterialsList({ materials, label }: { materials: { name: string; amount: string }[]; label: string }) {
  return (
    <dl className="grid grid-cols-3 gap-2 text-sm" aria-label={label}>
      {materials.map((material) => (
        <div key={material.name} className="rounded-md border border-space-700 px-3 py-2">
          <dt className="text-slate-300">{material.name}</dt>
          <dd className="text-lg font-semibold text-white" data-testid={`material-${material.name}`}>
            {material.amount}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A refused post of a ship form (the managed action's answer), when it was about this ship (or about no ship). */
export function answerFor(answer: FormErrors | null | undefined, intent: string, tokenId: string | null) {
  return answer && answer.intent === intent && (answer.values.tokenId || null) === tokenId ? answer : null;
}

/** How a page acts: through server forms (managed wallet) or the island (browser wallet, with the chain's addresses). */
export type ShipActor = { kind: "managed"; keyPrefix: string } | { kind: "browser"; chain: ShipIslandChain; wallet: string };

/**
 * One ship action: a managed wallet's form (its refusal right under it), or the browser wallet's island button. The
 * form's idempotency key is the render's prefix with the intent and ship, so the same form posted twice runs once.
 */
export function ShipAction({
  actor,
  action,
  label,
  answer,
  fields = {},
  children,
  primary = false,
}: {
  actor: ShipActor;
  action: ShipIslandAction;
  label: string;
  answer?: FormErrors | null;
  /** Extra hidden fields of the managed form. */
  fields?: Record<string, string>;
  /** Visible fields of the managed form (a select, amounts), before the button. */
  children?: ReactNode;
  primary?: boolean;
}) {
  const busy = useNavigation().state !== "idle";
  const tokenId = "tokenId" in action ? action.tokenId : null;
  const mine = answerFor(answer, action.intent, tokenId);
  if (actor.kind === "browser") {
    return (
      <ClientOnly fallback={<p className="muted text-sm">Your browser wallet signs this itself: that needs JavaScript.</p>}>
        {() => (
          <Suspense fallback={<p role="status">Loading the wallet tools…</p>}>
            <ShipActionIsland chain={actor.chain} wallet={actor.wallet} action={action} label={label} primary={primary} />
          </Suspense>
        )}
      </ClientOnly>
    );
  }
  const key = [actor.keyPrefix, action.intent, tokenId ?? "fleet", "slot" in action ? String(action.slot) : ""].filter(Boolean).join("-");
  return (
    <Form method="post" preventScrollReset className="flex flex-col gap-2" aria-label={label}>
      <Hidden fields={{ intent: action.intent, idempotencyKey: key, ...(tokenId ? { tokenId } : {}), ...fields }} />
      <div className="flex flex-wrap items-end gap-2">
        {children}
        <button type="submit" className={primary ? "btn-primary" : "btn-secondary"} disabled={busy}>
          {label}
        </button>
      </div>
      <Refused messages={mine?.errors[""]} />
    </Form>
  );
}

import { Form, useNavigation } from "@remix-run/react";

/** "Open now" on a mined purchase's status page: opens exactly the boxes that purchase minted (the box page's action reads them). */
export function OpenNowForm({ form }: { form: { action: string; executionId: string; idempotencyKey: string; count: number } }) {
  const busy = useNavigation().state !== "idle";
  return (
    <Form method="post" action={form.action}>
      <input type="hidden" name="intent" value="open-bought" />
      <input type="hidden" name="executionId" value={form.executionId} />
      <input type="hidden" name="idempotencyKey" value={form.idempotencyKey} />
      <button type="submit" className="btn-primary" disabled={busy}>
        Open now{form.count > 1 ? ` (${form.count} boxes)` : ""}
      </button>
    </Form>
  );
}

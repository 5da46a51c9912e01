import { Form, useNavigation } from "@remix-run/react";

/** A status page's next step (services/action-follow-ups.server.ts): hidden fields posted to the feature's page. */
export function FollowUpForm({ form }: { form: { action: string; fields: Record<string, string>; label: string } }) {
  const busy = useNavigation().state !== "idle";
  return (
    <Form method="post" action={form.action}>
      {Object.entries(form.fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className="btn-primary" disabled={busy}>
        {form.label}
      </button>
    </Form>
  );
}

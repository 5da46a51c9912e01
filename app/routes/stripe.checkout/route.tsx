import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Refused } from "~/features/actions/form-parts";
import { Field } from "~/components/forms";
import { useFieldRules } from "~/components/use-field-rules";
import { CARD_RULES } from "~/features/cards/card-rules";
import { checkoutPage, checkoutPost, loaderCacheControl } from "~/routes/stripe.checkout/route.server";

export const meta: MetaFunction = () => [{ title: "Test checkout | Spark Era" }];
export const headers = loaderCacheControl;

/** Like the provider's payment page, it stands apart from the site: no header. */
export const handle = { hideHeader: true };

export const loader = ({ request }: LoaderFunctionArgs) => checkoutPage(request);
export const action = ({ request }: ActionFunctionArgs) => checkoutPost(request);

export default function TestCheckout() {
  const { sessionId, productName, quantity, amount } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const { form, formErrorId, formErrors, field } = useFieldRules({ id: "card", rules: CARD_RULES, lastResult: actionData?.result });
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <p className="inline-block rounded-full border border-amber-400 px-3 py-0.5 text-xs font-semibold text-amber-200">Test mode</p>
      <h1 className="page-title mt-3">Pay {amount}</h1>
      <p className="muted mt-2">
        {productName} × {quantity}
      </p>
      <Form method="post" {...form} className="card mt-6 flex flex-col gap-4">
        <input type="hidden" name="sessionId" value={sessionId} />
        <Field
          label="Card number"
          field={field("cardNumber")}
          inputProps={{ inputMode: "numeric", autoComplete: "cc-number", placeholder: "1234 1234 1234 1234", autoFocus: true }}
        />
        <div className="grid grid-cols-2 gap-3">
          <Field
            label="Expiry (MM / YY)"
            field={field("expiry")}
            inputProps={{ inputMode: "numeric", autoComplete: "cc-exp", placeholder: "MM / YY" }}
          />
          <Field label="CVC" field={field("cvc")} inputProps={{ inputMode: "numeric", autoComplete: "cc-csc", placeholder: "123" }} />
        </div>
        <div id={formErrorId}>
          <Refused messages={formErrors} />
        </div>
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Paying…" : `Pay ${amount}`}
        </button>
        <p className="muted text-xs">
          No card is charged here. 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined; 4000 0000 0000 9995 has insufficient funds.
          Any future expiry date and any CVC.
        </p>
      </Form>
      <p className="mt-6 text-sm">
        <Link to="/stripe/demo">Cancel and go back</Link>
      </p>
    </div>
  );
}

import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ErrorList } from "~/components/error-list";
import { Field } from "~/components/forms";
import { BoxArt } from "~/features/lootbox/catalogue";
import { LoginPrompt, Page, Section } from "~/components/page";
import { BIND_WALLET_MESSAGE } from "~/components/notices";
import { useFieldRules } from "~/components/use-field-rules";
import { ORDER_RULES } from "~/features/cards/card-rules";
import { demoPage, demoPost } from "~/routes/stripe.demo/route.server";

export const meta: MetaFunction = () => [{ title: "Buy loot boxes by card | Spark Era" }];

export const loader = ({ request }: LoaderFunctionArgs) => demoPage(request);
export const action = ({ request }: ActionFunctionArgs) => demoPost(request);

export default function StripeDemo() {
  const { boxes, chosen, quantity, viewer, loginHref, provider, chainOnly } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const { form, formErrorId, formErrors, field } = useFieldRules({
    id: "card-order",
    rules: ORDER_RULES,
    lastResult: actionData?.result,
    defaultValue: { quantity: String(quantity), typeBox: String(chosen) },
  });
  const typeBox = field("typeBox");
  const picked = Number(typeBox.defaultValue ?? chosen);
  return (
    <Page
      title="Buy loot boxes by card"
      intro="Pay with a bank card instead of crypto. The boxes go to your account's wallet as soon as the payment is confirmed."
    >
      <Section title="Your order" id="order">
        <Form method="post" {...form} className="flex flex-col gap-5">
          <fieldset aria-describedby={typeBox.errors ? typeBox.errorId : undefined}>
            <legend className="text-sm font-medium text-slate-100">Loot box</legend>
            <div className="mt-2 grid gap-3 sm:grid-cols-3">
              {boxes.map((box) => (
                <label
                  key={box.typeBox}
                  className="flex cursor-pointer gap-3 rounded-lg border border-space-700 p-3 has-[:checked]:border-spark-400 has-[:checked]:bg-space-800"
                >
                  <input
                    type="radio"
                    name="typeBox"
                    value={box.typeBox}
                    defaultChecked={box.typeBox === picked}
                    className="mt-1 accent-spark-500"
                  />
                  <BoxArt typeBox={box.typeBox} size={64} />
                  <span className="flex flex-col gap-1 text-sm">
                    <span className="font-semibold text-white">{box.title}</span>
                    <span className="text-slate-300">{box.content}</span>
                    <span className="font-semibold text-white">{box.price} each</span>
                  </span>
                </label>
              ))}
            </div>
            <ErrorList id={typeBox.errorId} errors={typeBox.errors} />
          </fieldset>
          <div className="max-w-40">
            <Field label="Quantity" field={field("quantity")} inputProps={{ inputMode: "numeric", autoComplete: "off" }} />
          </div>
          <ErrorList id={formErrorId} errors={formErrors} />
          {viewer === "wallet" ? (
            <button type="submit" className="btn-primary self-start" disabled={busy}>
              {busy ? "Starting checkout…" : "Continue to payment"}
            </button>
          ) : viewer === "visitor" ? (
            <LoginPrompt href={loginHref} what="buy loot boxes by card" />
          ) : (
            <p className="text-sm">
              {BIND_WALLET_MESSAGE} to receive the boxes.{" "}
              <Link to="/login?act=connect&redirect=%2Fstripe%2Fdemo" className="font-semibold">
                Bind now
              </Link>
            </p>
          )}
        </Form>
        <p className="muted mt-4 text-sm">
          {provider === "test"
            ? "Test mode: no card is charged. Pay with the card 4242 4242 4242 4242, any future expiry date and any CVC."
            : "You pay on Stripe's secure checkout page, then come back here."}{" "}
          Boxes with a daily limit ({chainOnly.join(", ")}) are sold on the <Link to="/game">loot box pages</Link> only.
        </p>
      </Section>
    </Page>
  );
}

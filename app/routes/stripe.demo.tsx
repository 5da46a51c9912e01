import { type MetaFunction } from "@remix-run/node";
import { Page, Section } from "~/components/page";

export const meta: MetaFunction = () => [{ title: "Card payment demo | Spark Era" }];

export default function StripeDemo() {
  return (
    <Page
      title="Card payment demo"
      intro="Buy a loot box with a bank card instead of crypto. This is a demonstration of the card checkout: no real card is charged."
    >
      <Section title="Order" id="order">
        <dl className="grid gap-2 text-sm sm:grid-cols-3">
          <div>
            <dt className="muted">Product</dt>
            <dd className="text-white">Standard loot box</dd>
          </div>
          <div>
            <dt className="muted">Quantity</dt>
            <dd className="text-white">1</dd>
          </div>
          <div>
            <dt className="muted">Price</dt>
            <dd className="text-white">US$ 9.99</dd>
          </div>
        </dl>
        <a href="/stripe/success?session_id=cs_demo_paid" className="btn-primary mt-4">
          Pay with card
        </a>
      </Section>
    </Page>
  );
}

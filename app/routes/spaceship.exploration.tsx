import { type MetaFunction } from "@remix-run/node";
import { Page, Section } from "~/components/page";
import { SpaceshipNav } from "~/components/spaceship-nav";

export const meta: MetaFunction = () => [{ title: "Spaceship exploration | Spark Era" }];

export default function SpaceshipExploration() {
  return (
    <Page
      title="Spaceship exploration"
      intro="Send ships to mine. Longer missions mine more, and lose more duration."
      actions={<SpaceshipNav />}
    >
      <Section title="Missions" id="missions">
        <p className="muted">Mined amounts per ship, and the duration lost by mining seconds, from the duration-lost calculator.</p>
      </Section>
    </Page>
  );
}

import { type MetaFunction } from "@remix-run/node";
import { Page, Section } from "~/components/page";
import { SpaceshipNav } from "~/components/spaceship-nav";

export const meta: MetaFunction = () => [{ title: "Spaceship configuration | Spark Era" }];

export default function SpaceshipConfiguration() {
  return (
    <Page
      title="Spaceship configuration"
      intro="Crew your ships with heroes and fit equipment into their slots."
      actions={<SpaceshipNav />}
    >
      <Section title="Crew" id="crew">
        <p className="muted">Assign hero cards to the ship. Open more slots with a slot opener.</p>
      </Section>
      <Section title="Power" id="power">
        <p className="muted">The power calculator sums the crew and equipment into the ship’s power.</p>
      </Section>
    </Page>
  );
}

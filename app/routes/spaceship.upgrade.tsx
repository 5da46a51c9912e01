import { type MetaFunction } from "@remix-run/node";
import { Page, Section } from "~/components/page";
import { SpaceshipNav } from "~/components/spaceship-nav";

export const meta: MetaFunction = () => [{ title: "Spaceship upgrade | Spark Era" }];

export default function SpaceshipUpgrade() {
  return (
    <Page title="Spaceship upgrade" intro="Raise a ship’s level with materials: DarkIron, Silver and Gold." actions={<SpaceshipNav />}>
      <Section title="Upgrade" id="upgrade">
        <p className="muted">Choose a ship and the materials to spend. Each level raises its attributes.</p>
      </Section>
    </Page>
  );
}

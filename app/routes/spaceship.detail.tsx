import { type MetaFunction } from "@remix-run/node";
import { Page, Section } from "~/components/page";
import { SpaceshipNav } from "~/components/spaceship-nav";

export const meta: MetaFunction = () => [{ title: "Spaceship detail | Spark Era" }];

export default function SpaceshipDetail() {
  return (
    <Page title="Spaceship detail" intro="One ship: its attributes, level, durability and slots." actions={<SpaceshipNav />}>
      <Section title="Attributes" id="attributes">
        <p className="muted">Endurance, Agility, Pisonic, Strength, Crit, Spirit and Armor, and their Total.</p>
      </Section>
      <Section title="Durability and repair" id="repair">
        <p className="muted">Remaining duration and the repair cost to restore it.</p>
      </Section>
    </Page>
  );
}

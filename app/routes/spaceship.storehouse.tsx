import { type MetaFunction } from "@remix-run/node";
import { Page, Section } from "~/components/page";
import { SpaceshipNav } from "~/components/spaceship-nav";

export const meta: MetaFunction = () => [{ title: "Spaceship storehouse | Spark Era" }];

export default function SpaceshipStorehouse() {
  return (
    <Page title="Spaceship storehouse" intro="Every spaceship you own, on the chain and in the game." actions={<SpaceshipNav />}>
      <Section title="Your spaceships" id="ships">
        <p className="muted">
          Ships with their rank, level and attributes: Endurance, Agility, Pisonic, Strength, Crit, Spirit, Armor and Total.
        </p>
      </Section>
    </Page>
  );
}

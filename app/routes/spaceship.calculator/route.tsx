import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-page";
import { Page, Section } from "~/components/page";
import { Calculator } from "~/features/spaceship/calculator";
import { SpaceshipNav } from "~/features/spaceship/spaceship-nav";
import { calculatorDefaults, calculatorOptions, calculatorResult, parseCalculator } from "~/features/spaceship/calculator-form";

export const meta: MetaFunction = () => [{ title: "Spaceship calculators | Spark Era" }];

/** Every input is in the URL: a bookmarked calculation opens as it was. Bad inputs answer 400 with their messages. */
export function loader({ request }: LoaderFunctionArgs) {
  const form = parseCalculator(new URL(request.url).searchParams, calculatorDefaults());
  return data(
    { values: form.values, errors: form.errors, result: form.input && calculatorResult(form.input), options: calculatorOptions() },
    { status: form.input ? 200 : 400 },
  );
}

export default function SpaceshipCalculator() {
  const { values, errors, result, options } = useLoaderData<typeof loader>();
  return (
    <Page
      title="Power and duration-lost calculators"
      intro="Work out a ship's power, and what a mission of any length mines and costs in duration, before you send it out."
      actions={<SpaceshipNav />}
    >
      <Section title="Calculator" id="calculator">
        <Calculator action="/spaceship/calculator" values={values} errors={errors} result={result} options={options} />
      </Section>
      <Section title="How it is worked out" id="formulas">
        <ul className="flex list-disc flex-col gap-1 pl-5 text-sm">
          <li>Power = Total × (100 + 15 × (level − 1)) / 100, plus 30 per grade and 10 per level of each piece of equipment fitted.</li>
          <li>Lost rate = 1,600 − 4 × (Endurance + Armor) seconds of duration per 1,000 mining seconds, never under 400.</li>
          <li>Full duration = 8 hours, 2 more per rank above Common, half an hour more per level above 1.</li>
          <li>
            Per mining second: DarkIron = power / 36,000; Silver = power × (level + 1) / 360,000; Gold = power × level / 1,800,000 (rounded
            down over the whole mission). Mining stops when the duration runs out.
          </li>
          <li>A full repair costs 1 FIRE per 6 minutes of duration missing, per rank (Common 1 to Legend 4).</li>
        </ul>
      </Section>
    </Page>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

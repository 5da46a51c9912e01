import type { MetaFunction } from "@remix-run/node";

export const meta: MetaFunction = () => [{ title: "Floor" }];

/** The trivial page whose rate is the floor the market page is compared with. */
export default function Floor() {
  return (
    <main>
      <h1>Floor</h1>
      <p>A Remix page with no loader and no layout.</p>
    </main>
  );
}

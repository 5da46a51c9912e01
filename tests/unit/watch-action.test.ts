/**
 * The watch action (features/watches/watches.server.ts) with the market API stubbed (issue 42): what reaches the
 * API for a view filtered by list attributes (its label and its listing query), and what a refusal shows: a field's
 * words next to it, a 409 as said, anything else in the product's words, never the schema's path.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import type * as ApisModule from "~/services/apis.server";
import { BackendError } from "~/services/http-client.server";

const watches = { add: vi.fn() };

vi.mock("~/services/apis.server", async (importActual) => ({
  ...(await importActual<typeof ApisModule>()),
  signedInApis: vi.fn(async () => ({ watches })),
}));

const { watchesAction } = await import("~/features/watches/watches.server");
const { WATCH_MESSAGES } = await import("~/features/watches/watch-messages");

function post(fields: Record<string, string>) {
  return new Request("http://app.test/marketplace/watches", { method: "POST", body: new URLSearchParams({ intent: "add", ...fields }) });
}

async function refusal(response: Response) {
  return { status: response.status, body: (await response.json()) as { label: string; result: { error: Record<string, string[]> } } };
}

beforeEach(() => watches.add.mockReset());

describe("watching a market view", () => {
  it("sends the view's label and listing query, list attributes included", async () => {
    watches.add.mockResolvedValue({});
    const response = await watchesAction(post({ search: "nftType=0&camp=0&rarity=1&currency=FIRE", ceiling: "500", currency: "FIRE" }));
    expect(response.status).toBe(302);
    expect(watches.add).toHaveBeenCalledWith({
      search: "nftType=0&camp=0&rarity=1&currency=FIRE",
      label: "Hero cards · Camp: Asman Zerg · Rarity: Rare · FIRE ≤ 500",
      query: expect.objectContaining({ nftType: 0, camp: [0], rarity: [1], currency: "FIRE" }),
      currency: "FIRE",
      ceiling: (500n * 10n ** 18n).toString(),
    });
  });

  it("says a refused view in the product's words, a field's refusal next to it, a 409 as the market said", async () => {
    watches.add.mockRejectedValueOnce(new BackendError("query.camp: expected a comma-separated list of 0, 1, 2, 3", 400));
    const refused = await refusal(await watchesAction(post({ search: "nftType=0&camp=0" })));
    expect(refused).toMatchObject({
      status: 400,
      body: { label: "Hero cards · Camp: Asman Zerg", result: { error: { "": [WATCH_MESSAGES.viewRefused] } } },
    });
    expect(JSON.stringify(refused.body)).not.toContain("query.");

    watches.add.mockRejectedValueOnce(new BackendError("currency: This view shows QUARK listings only: choose QUARK or any currency", 400));
    expect(await refusal(await watchesAction(post({ search: "currency=QUARK", currency: "FIRE" })))).toMatchObject({
      status: 400,
      body: { result: { error: { currency: ["This view shows QUARK listings only: choose QUARK or any currency"] } } },
    });

    watches.add.mockRejectedValueOnce(new BackendError("You already watch this search", 409));
    expect(await refusal(await watchesAction(post({ search: "" })))).toMatchObject({
      status: 409,
      body: { result: { error: { "": ["You already watch this search"] } } },
    });
  });
});

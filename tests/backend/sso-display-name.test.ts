/**
 * Issue 42: a player's display name. POST /sso/displayName sets or clears the signed-in account's name, checked by the
 * rule of core/display-name.ts; GET /api/user/{walletAddress} tells it. A name is one account's in any case, and the
 * unique key decides it: of many accounts posting one name at once over the backend's one connection pool, one wins.
 */
import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_BROWSER_ACCOUNT } from "~core/demo";
import { DISPLAY_NAME_TAKEN } from "~core/display-name";
import { startTestBackends } from "./harness";
import { type Backend, INVALID_SESSION, type SignIn, register } from "./sso-helpers";

let t: Backend;
beforeAll(async () => {
  t = await startTestBackends();
});
afterAll(() => t?.close());

const setName = (token: string, DisplayName: unknown) =>
  t.call<{ DisplayName: string | null }>("POST", "/sso/displayName", { DisplayName }, token);

/** A fresh account with a managed wallet, so that GET /api/user shows it. */
async function player(tag: string): Promise<SignIn & { wallet: string }> {
  const signIn = await register(t, `${tag}-${Math.random().toString(36).slice(2, 8)}@sparkera.test`);
  const created = await t.call<{ address: string }>("GET", "/sso/createAddress", undefined, signIn.token);
  expect(created.status, created.msg).toBe(200);
  return { ...signIn, wallet: created.data.address };
}

const publicName = async (wallet: string) => (await t.call<{ DisplayName: string | null }>("GET", `/api/user/${wallet}`)).data.DisplayName;

describe("POST /sso/displayName", () => {
  it("needs a live session", async () => {
    expect(await setName("ab".repeat(32), "Nobody")).toMatchObject({ status: 401, msg: INVALID_SESSION });
  });

  it("sets, changes (its own case too) and clears the name, and GET /api/user tells it", async () => {
    const pilot = await player("pilot");
    expect(await publicName(pilot.wallet)).toBeNull();
    expect(await setName(pilot.token, "  Star Lord ")).toMatchObject({ status: 200, data: { DisplayName: "Star Lord" } });
    const answer = await t.call("GET", `/api/user/${pilot.wallet}`);
    // UserName, for older clients, is the public name too: no part of the email.
    expect(answer.data).toMatchObject({ UserName: "Star Lord", DisplayName: "Star Lord" });
    expect(await setName(pilot.token, "star lord")).toMatchObject({ status: 200, data: { DisplayName: "star lord" } });
    expect(await setName(pilot.token, "Nova_7")).toMatchObject({ status: 200, data: { DisplayName: "Nova_7" } });
    expect(await setName(pilot.token, "")).toMatchObject({ status: 200, data: { DisplayName: null } });
    expect(await publicName(pilot.wallet)).toBeNull();
    expect(await setName(pilot.token, "Nova_7")).toMatchObject({ status: 200 });
    expect(await setName(pilot.token, null)).toMatchObject({ status: 200, data: { DisplayName: null } });
  });

  it("refuses a name another account holds, in any case, with the form's words; a name let go is free again", async () => {
    const [first, second] = [await player("first"), await player("second")];
    expect((await setName(first.token, "Comet-Rider")).status).toBe(200);
    for (const name of ["Comet-Rider", "comet-rider", "COMET-RIDER"]) {
      expect(await setName(second.token, name)).toMatchObject({ status: 409, msg: DISPLAY_NAME_TAKEN });
    }
    expect(await publicName(second.wallet)).toBeNull();
    expect((await setName(first.token, "")).status).toBe(200);
    expect(await setName(second.token, "comet-rider")).toMatchObject({ status: 200, data: { DisplayName: "comet-rider" } });
  });

  it("checks the name by the rule, naming the field", async () => {
    const pilot = await player("rules");
    const cases: [unknown, string][] = [
      ["ab", "DisplayName: A name has 3 to 20 characters."],
      ["a".repeat(21), "DisplayName: A name has 3 to 20 characters."],
      ["me@sparkera.test", "DisplayName: A name can’t look like an email address."],
      ["0xf39Fd6", "DisplayName: A name can’t start with 0x: it would look like a wallet address."],
      ["Star  Lord", "DisplayName: Use letters A–Z and digits, with _, - or single spaces between them."],
      ["_star", "DisplayName: Use letters A–Z and digits, with _, - or single spaces between them."],
      ["Zoë", "DisplayName: Use letters A–Z and digits, with _, - or single spaces between them."],
      ["Spark Era", "DisplayName: That name is reserved: choose another."],
      ["ADMIN", "DisplayName: That name is reserved: choose another."],
      [42, "DisplayName: Expected string, received number"],
    ];
    for (const [name, msg] of cases) expect(await setName(pilot.token, name), String(name)).toMatchObject({ status: 400, msg });
    expect((await t.call("POST", "/sso/displayName", {}, pilot.token)).status).toBe(400);
    expect(await publicName(pilot.wallet)).toBeNull();
  });

  it("lets one of many accounts taking one name at once (in different cases) have it", async () => {
    const players = await Promise.all(Array.from({ length: 8 }, (_, i) => player(`race${i}`)));
    const spellings = ["Meteor", "meteor", "METEOR", "MeTeOr"];
    const answers = await Promise.all(players.map((p, i) => setName(p.token, spellings[i % spellings.length])));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409 && a.msg === DISPLAY_NAME_TAKEN)).toHaveLength(players.length - 1);
    const named = await Promise.all(players.map((p) => publicName(p.wallet)));
    expect(named.filter((name) => name !== null)).toEqual([answers.find((a) => a.status === 200)!.data.DisplayName]);
    const keys = await t.store.sql.all("select display_name_key from users where display_name_key = ?", ["meteor"]);
    expect(keys).toHaveLength(1);
  });
});

describe("GET /api/user/{walletAddress}", () => {
  it("tells no name for a player who chose none, and still 404s a wallet no one bound", async () => {
    expect(await publicName(DEMO_BROWSER_ACCOUNT.wallet)).toBeNull();
    expect((await t.call("GET", `/api/user/${privateKeyToAccount(generatePrivateKey()).address}`)).status).toBe(404);
  });
});

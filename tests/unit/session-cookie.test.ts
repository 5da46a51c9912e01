import { describe, expect, it } from "vitest";
import type { UserInfo } from "~core/api/sso";
import { commitSession, keptUrl, makeToast, MAX_COOKIE_BYTES, MAX_KEPT_URL_LENGTH, sessionStorage } from "~/services/session.server";

const user: UserInfo = {
  UserName: "demo@sparkera.test",
  Email: "demo@sparkera.test",
  UserWithThirdName: "",
  LoginType: "email",
  UserWithThird: "",
  BindAddrType: 1,
  WalletAddress: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
};

async function signedInSession() {
  const session = await sessionStorage().getSession();
  session.set("token", "t".repeat(64));
  session.set("user", user);
  return session;
}

/** What the next request reads back from the cookie. */
async function readBack(setCookie: string) {
  return sessionStorage().getSession(setCookie.split(";", 1)[0]);
}

describe("keptUrl", () => {
  it("keeps a URL of ours as it is", () => {
    expect(keptUrl("/marketplace/detail?nftType=4&tokenId=12&back=%2Fmarketplace%2Fmarket")).toBe(
      "/marketplace/detail?nftType=4&tokenId=12&back=%2Fmarketplace%2Fmarket",
    );
  });

  it("drops the query of a padded URL, then the path", () => {
    expect(keptUrl(`/invite?note=${"x".repeat(3000)}`)).toBe("/invite");
    expect(keptUrl(`/${"a".repeat(3000)}?b=1`)).toBe("/home");
    expect(keptUrl(`/${"a".repeat(MAX_KEPT_URL_LENGTH - 1)}`)).toHaveLength(MAX_KEPT_URL_LENGTH);
  });
});

describe("commitSession", () => {
  it("keeps an expired session's dialog under the cookie limit when the page's URL is 3,000 characters", async () => {
    const session = await signedInSession();
    session.unset("token");
    session.flash("dialog", { kind: "session-expired", redirectTo: `/invite?note=${"x".repeat(3000)}` });
    const header = await commitSession(session);
    expect(header.length).toBeLessThanOrEqual(MAX_COOKIE_BYTES);
    expect((await readBack(header)).get("dialog")).toEqual({ kind: "session-expired", redirectTo: "/invite" });
  });

  it("drops the one-shot notices rather than the sign-in when they would not fit", async () => {
    const session = await signedInSession();
    session.flash("toast", makeToast("error", "é".repeat(3000)));
    session.flash("dialog", { kind: "failed", message: "Already sold" });
    const header = await commitSession(session);
    expect(header.length).toBeLessThanOrEqual(MAX_COOKIE_BYTES);
    const next = await readBack(header);
    expect(next.get("token")).toBe("t".repeat(64));
    expect(next.get("user")).toEqual(user);
    expect(next.get("toast")).toBeUndefined();
    expect(next.get("dialog")).toBeUndefined();
  });

  it("changes nothing in a session that fits", async () => {
    const session = await signedInSession();
    session.flash("toast", makeToast("success", "Added to your favorites."));
    const next = await readBack(await commitSession(session));
    expect(next.get("toast")?.message).toBe("Added to your favorites.");
    expect(next.get("token")).toBe("t".repeat(64));
  });
});

/**
 * apis(request): typed clients carrying the session's token, where a 401 becomes product §8's expired-session
 * redirect by itself; backendProblem: the one mapping of a backend failure to a status and a message.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as posterLoader } from "~/routes/invite.poster[.]svg/route";
import { apis, backendProblem, publicApis, signedInApis } from "~/services/apis.server";
import { BackendError, SessionExpiredError } from "~/services/http-client.server";
import { sessionStorage } from "~/services/session.server";
import { loader as rootLoader } from "~/root";
import { AUTH_TOKEN_HEADER } from "~core/constants";
import { DEMO_USER, sessionCookie } from "./session-fixture";

/** The fake backend: a 401 for the token "dead", the envelope with the token it saw otherwise. */
const seen: (string | undefined)[] = [];
const backend = http.createServer((req, res) => {
  const token = req.headers[AUTH_TOKEN_HEADER.toLowerCase()] as string | undefined;
  seen.push(token);
  res.writeHead(token === "dead" ? 401 : 200, { "content-type": "application/json" });
  res.end(
    JSON.stringify(
      token === "dead"
        ? { code: 401, msg: "expired", data: null, success: false }
        : { code: 200, msg: "", data: { inviteCode: "ABC123", invitePath: "/login?act=reg&code=ABC123" }, success: true },
    ),
  );
});

const requestAt = (path: string, cookie: string) => new Request(`http://localhost${path}`, { headers: { Cookie: cookie } });

/** What a thrown redirect leaves in the session: the dialog to show, and whether the token is gone. */
async function expiredSession(response: Response) {
  const session = await sessionStorage().getSession(response.headers.get("Set-Cookie"));
  return {
    location: response.headers.get("Location"),
    status: response.status,
    token: session.get("token"),
    dialog: session.get("dialog"),
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("resolved"),
    (error: unknown) => error,
  );
}

beforeAll(async () => {
  await new Promise<void>((resolve) => backend.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
  Object.assign(process.env, { SSO_API_URL: url, MARKET_API_URL: url });
});
afterAll(() => {
  backend.closeAllConnections();
  backend.close();
});

describe("apis(request)", () => {
  it("reads the session once: its token, user and wallet, and clients that carry the token", async () => {
    const api = await apis(requestAt("/invite", await sessionCookie("live")));
    expect([api.token, api.user?.UserName, api.wallet]).toEqual(["live", DEMO_USER.UserName, DEMO_USER.WalletAddress]);
    seen.length = 0;
    await expect(api.invites.getInviteCode()).resolves.toMatchObject({ inviteCode: "ABC123" });
    await api.market.addView({ tokenId: "1", nftType: 0 });
    expect(seen).toEqual(["live", "live"]);
  });

  it("turns a 401 into the expired-session redirect: the token forgotten, the Tips dialog on the page", async () => {
    const api = await apis(requestAt("/marketplace/detail?nftType=0&tokenId=1", await sessionCookie("dead")));
    const thrown = await rejection(api.orders.gameBalances());
    expect(thrown).toBeInstanceOf(Response);
    expect(await expiredSession(thrown as Response)).toEqual({
      location: "/marketplace/detail?nftType=0&tokenId=1",
      status: 302,
      token: undefined,
      dialog: { kind: "session-expired", redirectTo: "/marketplace/detail?nftType=0&tokenId=1" },
    });
  });

  it("shows the dialog where `returnTo` says, and only on our own pages", async () => {
    for (const [returnTo, shown] of [
      ["/invite", "/invite"],
      ["https://evil.example/x", "/home"],
    ]) {
      const api = await apis(requestAt("/invite/poster.svg", await sessionCookie("dead")), { returnTo });
      const session = await expiredSession((await rejection(api.sso.getUserInfo())) as Response);
      expect([session.location, session.dialog]).toEqual([shown, { kind: "session-expired", redirectTo: shown }]);
    }
  });

  it("a route needs no wrapping: the poster's 401 is the redirect to the invite page", async () => {
    const args = { request: requestAt("/invite/poster.svg", await sessionCookie("dead")), params: {}, context: {} } as LoaderFunctionArgs;
    const thrown = await rejection(posterLoader(args));
    expect(await expiredSession(thrown as Response)).toMatchObject({
      location: "/invite",
      dialog: { kind: "session-expired", redirectTo: "/invite" },
    });
  });

  it("signedInApis sends a visitor to log in and come back", async () => {
    const thrown = await rejection(signedInApis(requestAt("/marketplace/storage?tab=selling", await sessionCookie(null))));
    expect((thrown as Response).headers.get("Location")).toBe("/login?redirect=%2Fmarketplace%2Fstorage%3Ftab%3Dselling");
    const api = await signedInApis(requestAt("/marketplace/storage", await sessionCookie("live")));
    expect(api.user.UserName).toBe(DEMO_USER.UserName);
  });

  it('with onExpired: "throw", a 401 rejects with the SessionExpiredError itself, not a redirect', async () => {
    const api = await apis(requestAt("/home", await sessionCookie("dead")), { onExpired: "throw" });
    expect(await rejection(api.sso.getUserInfo())).toBeInstanceOf(SessionExpiredError);
    expect(await rejection(api.orders.gameBalances())).toBeInstanceOf(SessionExpiredError);
  });

  it("the root loader completes a session that has only a token, and on a 401 shows the Tips dialog on the page itself", async () => {
    const args = (cookie: string) =>
      ({ request: requestAt("/marketplace/market?nftType=0", cookie), params: {}, context: {} }) as LoaderFunctionArgs;
    const response = await rootLoader(args(await sessionCookie("dead", null)));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ user: null, dialog: { kind: "session-expired", redirectTo: "/marketplace/market" } });
    const session = await sessionStorage().getSession(response.headers.get("Set-Cookie"));
    expect(session.get("token")).toBeUndefined();
    seen.length = 0;
    const live = await rootLoader(args(await sessionCookie("live", null)));
    // The session's user, then its inbox's unread count for the header (issue 30), both with the session's token.
    expect([live.status, seen]).toEqual([200, ["live", "live"]]);
    expect((await sessionStorage().getSession(live.headers.get("Set-Cookie"))).get("token")).toBe("live");
  });

  it("publicApis sends no token, so no session can expire", async () => {
    seen.length = 0;
    await publicApis().market.addView({ tokenId: "1", nftType: 0 });
    expect(seen).toEqual([undefined]);
  });
});

describe("backendProblem", () => {
  const problem = (status: number, message = "msg") => backendProblem(new BackendError(message, status));

  it("a backend down, hung or failing is 502 and a busy one 503, with the market named", () => {
    expect(problem(502, "The server could not be reached. Please try again.")).toEqual({
      status: 502,
      message: "The market could not be reached: The server could not be reached. Please try again.",
      reason: "The server could not be reached. Please try again.",
    });
    expect([problem(500).status, problem(503).status, problem(504).status, problem(429).status]).toEqual([502, 502, 502, 503]);
  });

  it("a refusal keeps the backend's words: 404 and 409 as they are, any other 4xx a 400", () => {
    expect(problem(400, "nftType: expected an NFT type code from 0 to 8")).toEqual({
      status: 400,
      message: "nftType: expected an NFT type code from 0 to 8",
      reason: "nftType: expected an NFT type code from 0 to 8",
    });
    expect([problem(403).status, problem(404).status, problem(409).status, problem(422).status]).toEqual([400, 404, 409, 400]);
  });

  it("throws anything that is not a backend failure on (a bug, the expired-session redirect)", () => {
    expect(() => backendProblem(new Error("bug"))).toThrow("bug");
    const redirect = new Response(null, { status: 302 });
    expect(() => backendProblem(redirect)).toThrow();
  });
});

import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { BUYER } from "../fixtures";

/** Known open-redirect payloads: each once became `Location: //evil.example`. */
const PAYLOADS = [
  "/.//evil.example",
  "/..//evil.example",
  "/%2e//evil.example",
  "/a/..//evil.example",
  "/%2e%2e//evil.example",
  "/%252e%252e//evil.example",
];

/** The Location stays on this site: a path a browser resolves here, also when it normalises it first. */
function expectSameSiteRedirect(response: APIResponse, baseURL: string) {
  expect(response.status()).toBe(302);
  const location = response.headers().location;
  expect(location).toMatch(/^\/(?![/\\])/);
  const url = new URL(location, baseURL);
  expect(url.origin).toBe(baseURL);
  expect(url.pathname.startsWith("//")).toBe(false);
  return location;
}

async function logIn(request: APIRequestContext, baseURL: string, redirectTo = "/home") {
  return request.post("/login", {
    form: { email: BUYER.email, password: BUYER.password, redirectTo },
    headers: { Origin: baseURL },
    maxRedirects: 0,
  });
}

for (const payload of PAYLOADS) {
  test(`POST /marketplace/favorite never redirects off-site for redirectTo=${payload}`, async ({ request, baseURL }) => {
    // An incomplete form, no login needed: the action redirects back to redirectTo with a "Failed" dialog.
    const response = await request.post("/marketplace/favorite", {
      form: { redirectTo: payload },
      headers: { Origin: baseURL! },
      maxRedirects: 0,
    });
    expect(expectSameSiteRedirect(response, baseURL!)).toBe("/marketplace/market");
  });
}

test("a signed-in GET /login?redirect= never redirects off-site", async ({ request, baseURL }) => {
  expectSameSiteRedirect(await logIn(request, baseURL!), baseURL!);
  for (const payload of PAYLOADS) {
    const response = await request.get(`/login?redirect=${encodeURIComponent(payload)}`, { maxRedirects: 0 });
    expect(expectSameSiteRedirect(response, baseURL!)).toBe("/home");
  }
  const kept = await request.get(`/login?redirect=${encodeURIComponent("/marketplace/market?sort=price#top")}`, { maxRedirects: 0 });
  expect(expectSameSiteRedirect(kept, baseURL!)).toBe("/marketplace/market?sort=price#top");
});

test("logging in with redirectTo=/.//evil.example lands on the home page", async ({ request, baseURL }) => {
  expect(expectSameSiteRedirect(await logIn(request, baseURL!, "/.//evil.example"), baseURL!)).toBe("/home");
});

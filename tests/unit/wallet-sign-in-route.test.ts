/** POST /resources/wallet-sign-in: the message names this server's domain, URL and chain around the SSO's nonce, never the browser's. */
import { beforeEach, describe, expect, it, vi } from "vitest";
import type * as Apis from "~/services/apis.server";

const env = { publicUrl: "https://sparkera.io", CHAIN_ID: 56 };
const NONCE = {
  nonce: "0123456789abcdef0123456789abcdef",
  issuedAt: "2026-01-01T12:00:00.000Z",
  expirationTime: "2026-01-01T12:05:00.000Z",
};
const walletNonce = vi.fn(async () => NONCE);
vi.mock("~/services/env.server", () => ({ getEnv: () => env }));
vi.mock("~/services/apis.server", async (importOriginal) => ({
  ...(await importOriginal<typeof Apis>()),
  publicApis: () => ({ sso: { walletNonce } }),
}));

const route = await import("~/routes/resources.wallet-sign-in/route");
const { signInMessageProblem } = await import("~core/sign-in-message");
const ADDRESS = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

async function ask(fields: Record<string, string>) {
  // The browser's own Host and Origin say nothing here: the message is the configured site's.
  const request = new Request("http://evil.example/resources/wallet-sign-in", { method: "POST", body: new URLSearchParams(fields) });
  const response = await route.action({ request, params: {}, context: { cspNonce: "" } });
  return { status: response.status, body: (await response.json()) as { message?: string; error?: string } };
}

beforeEach(() => {
  env.publicUrl = "https://sparkera.io";
  walletNonce.mockClear();
});

describe("POST /resources/wallet-sign-in", () => {
  it("builds the message for PUBLIC_URL's host and CHAIN_ID around a fresh nonce, for any spelling of the address", async () => {
    const { status, body } = await ask({ address: ADDRESS.toLowerCase(), domain: "evil.example", chainId: "1" });
    expect(status).toBe(200);
    expect(body.message).toContain("sparkera.io wants you to sign in with your Ethereum account:\n" + ADDRESS);
    expect(body.message).toContain("URI: https://sparkera.io/login\nVersion: 1\nChain ID: 56\nNonce: " + NONCE.nonce);
    expect(body.message).toContain(`Issued At: ${NONCE.issuedAt}\nExpiration Time: ${NONCE.expirationTime}`);
    const now = new Date("2026-01-01T12:01:00.000Z");
    expect(signInMessageProblem(body.message!, { domain: "sparkera.io", origin: "https://sparkera.io", chainId: 56, now })).toEqual({
      ok: { address: ADDRESS, nonce: NONCE.nonce },
    });
  });

  it.each(["", "0x1234", "hello"])("refuses the address %j in words, before any nonce is asked for", async (address) => {
    expect(await ask({ address })).toEqual({ status: 400, body: { error: "The wallet gave no valid address." } });
    expect(walletNonce).not.toHaveBeenCalled();
  });

  it("says so in words when PUBLIC_URL is a host EIP-4361 cannot name", async () => {
    env.publicUrl = "http://[::1]:3000";
    expect(await ask({ address: ADDRESS })).toEqual({
      status: 503,
      body: { error: "Signing in with a wallet is not available on this address of the site. Please log in with your email." },
    });
  });
});

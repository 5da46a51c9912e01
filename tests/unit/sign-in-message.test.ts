import { describe, expect, it } from "vitest";
import { createSiweMessage } from "viem/siwe";
import { SIGN_IN_STATEMENT, signInMessage, signInMessageProblem } from "~core/sign-in-message";

const ADDRESS = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const NOW = new Date("2026-01-01T12:00:00.000Z");
const SITE = { domain: "sparkera.io", origin: "https://sparkera.io", chainId: 56, now: NOW };
const FIELDS = {
  domain: "sparkera.io",
  uri: "https://sparkera.io/login",
  address: ADDRESS,
  chainId: 56,
  nonce: "0123456789abcdef0123456789abcdef",
  issuedAt: NOW,
  expirationTime: new Date(NOW.getTime() + 5 * 60_000),
} as const;

describe("signInMessage / signInMessageProblem", () => {
  it("builds an EIP-4361 message with our statement, and accepts it on this site before it expires", () => {
    const message = signInMessage(FIELDS);
    expect(message.split("\n").slice(0, 4)).toEqual([
      "sparkera.io wants you to sign in with your Ethereum account:",
      ADDRESS,
      "",
      SIGN_IN_STATEMENT,
    ]);
    expect(message).toContain("Expiration Time: 2026-01-01T12:05:00.000Z");
    expect(signInMessageProblem(message, SITE)).toEqual({ ok: { address: ADDRESS, nonce: FIELDS.nonce } });
  });

  it("says what is wrong, one reason at a time", () => {
    const at = (now: Date) => ({ ...SITE, now });
    const cases: [string, typeof SITE, string][] = [
      ["hello", SITE, "accessToken.message: is not a Sign-In with Ethereum (EIP-4361) message"],
      [
        signInMessage({ ...FIELDS, domain: "sparkera.io.evil.example" }),
        SITE,
        "This sign-in message is for another site (sparkera.io.evil.example), not sparkera.io",
      ],
      [
        signInMessage({ ...FIELDS, uri: "https://evil.example/login" }),
        SITE,
        "This sign-in message is for another address (https://evil.example/login), not https://sparkera.io",
      ],
      [
        signInMessage({ ...FIELDS, uri: "http://sparkera.io/login" }),
        SITE,
        "This sign-in message is for another address (http://sparkera.io/login), not https://sparkera.io",
      ],
      [
        signInMessage({ ...FIELDS, uri: "https://sparkera.io:8443/login" }),
        SITE,
        "This sign-in message is for another address (https://sparkera.io:8443/login), not https://sparkera.io",
      ],
      [signInMessage({ ...FIELDS, chainId: 1 }), SITE, "This sign-in message is for chain 1, not this site's chain 56"],
      [signInMessage(FIELDS), at(FIELDS.expirationTime), "This sign-in message has expired, please sign again"],
      [
        createSiweMessage({ ...FIELDS, version: "1", expirationTime: undefined }),
        SITE,
        "This sign-in message has no expiration time, please sign the one this site gives",
      ],
      [
        createSiweMessage({ ...FIELDS, version: "1", notBefore: new Date(NOW.getTime() + 60_000) }),
        SITE,
        "This sign-in message is not valid yet, please check your clock and sign again",
      ],
      [
        signInMessage(FIELDS).replace("Version: 1", "Version: 2"),
        SITE,
        "accessToken.message: is not a Sign-In with Ethereum (EIP-4361) message",
      ],
      [
        signInMessage(FIELDS).replace("2026-01-01T12:05:00.000Z", "soon"),
        SITE,
        "accessToken.message: is not a Sign-In with Ethereum (EIP-4361) message",
      ],
    ];
    for (const [message, site, problem] of cases) expect(signInMessageProblem(message, site)).toEqual({ problem });
  });
});

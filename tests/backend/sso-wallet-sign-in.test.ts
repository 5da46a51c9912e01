/** Sign-In with Ethereum (decision 0019): POST /sso/walletNonce, then POST /sso/loginOther with the signed EIP-4361 message. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Address, Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { WalletNonce } from "~core/api/sso";
import { bindWalletMessage } from "~core/bind-message";
import { LOCAL_CHAIN_ID } from "~core/constants";
import { DEMO_BROWSER_ACCOUNT } from "~core/demo";
import { SIGN_IN_TTL_MS, encodeSignInToken, signInMessage } from "~core/sign-in-message";
import { startTestBackends, testBackendOptions } from "./harness";
import { type Backend, type SignIn } from "./sso-helpers";

let t: Backend;
beforeAll(async () => {
  t = await startTestBackends();
});
afterAll(() => t?.close());

const demoWallet = privateKeyToAccount(DEMO_BROWSER_ACCOUNT.privateKey);
const SITE = { domain: testBackendOptions.signInDomain, uri: `https://${testBackendOptions.signInDomain}/login`, chainId: LOCAL_CHAIN_ID };

async function nonce(): Promise<WalletNonce> {
  const answer = await t.call<WalletNonce>("POST", "/sso/walletNonce");
  expect(answer.status, answer.msg).toBe(200);
  return answer.data;
}

/** The message the app builds around an issued nonce; `change` alters its fields. */
function messageFor(address: Address, issued: WalletNonce, change: Partial<Parameters<typeof signInMessage>[0]> = {}) {
  return signInMessage({
    ...SITE,
    address,
    nonce: issued.nonce,
    issuedAt: new Date(issued.issuedAt),
    expirationTime: new Date(issued.expirationTime),
    ...change,
  });
}

/** A fresh nonce's message, signed by `key`. */
async function signedToken(key: Hex = DEMO_BROWSER_ACCOUNT.privateKey, change: Partial<Parameters<typeof signInMessage>[0]> = {}) {
  const account = privateKeyToAccount(key);
  const issued = await nonce();
  const message = messageFor(account.address, issued, change);
  return { accessToken: encodeSignInToken({ message, signature: await account.signMessage({ message }) }), nonce: issued.nonce };
}

const loginOther = (accessToken: string) => t.call<SignIn>("POST", "/sso/loginOther", { LoginType: "wallet", accessToken });

describe("POST /sso/walletNonce", () => {
  it("gives a fresh 128-bit nonce each time, valid for five minutes", async () => {
    const [a, b] = await Promise.all([nonce(), nonce()]);
    expect(a.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(a.nonce).not.toBe(b.nonce);
    expect(Date.parse(a.expirationTime) - Date.parse(a.issuedAt)).toBe(SIGN_IN_TTL_MS);
    const row = await t.store.db.selectFrom("wallet_sign_in_nonces").selectAll().where("nonce", "=", a.nonce).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ expires_at: a.expirationTime, used_at: null });
  });
});

describe("POST /sso/loginOther (Sign-In with Ethereum)", () => {
  it("signs in the account the wallet is bound to", async () => {
    const { accessToken, nonce: spent } = await signedToken();
    const answer = await loginOther(accessToken);
    expect(answer.status, answer.msg).toBe(200);
    expect(answer.data.userInfo).toEqual({
      UserName: DEMO_BROWSER_ACCOUNT.email,
      Email: DEMO_BROWSER_ACCOUNT.email,
      UserWithThirdName: "Wallet",
      LoginType: "wallet",
      UserWithThird: demoWallet.address,
      BindAddrType: 1,
      WalletAddress: demoWallet.address,
    });
    const info = await t.call("GET", "/sso/getUserInfo", undefined, answer.data.token);
    expect(info.data).toMatchObject({ LoginType: "wallet", UserWithThird: demoWallet.address });
    const row = await t.store.db.selectFrom("wallet_sign_in_nonces").selectAll().where("nonce", "=", spent).executeTakeFirstOrThrow();
    expect(row.used_at).not.toBeNull();
  });

  it("refuses a replayed message", async () => {
    const { accessToken } = await signedToken();
    expect((await loginOther(accessToken)).status).toBe(200);
    expect(await loginOther(accessToken)).toMatchObject({ status: 400, msg: "This sign-in message was already used, please sign again" });
  });

  it("lets one of two posts of the same message in at once, and refuses the other as replayed", async () => {
    const { accessToken } = await signedToken();
    const answers = await Promise.all([loginOther(accessToken), loginOther(accessToken), loginOther(accessToken)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400]);
    for (const refused of answers.filter((answer) => answer.status === 400)) {
      expect(refused.msg).toBe("This sign-in message was already used, please sign again");
    }
  });

  it("refuses an expired message, and a message whose nonce has expired", async () => {
    const past = await signedToken(undefined, { expirationTime: new Date(Date.now() - 1000) });
    expect(await loginOther(past.accessToken)).toMatchObject({ status: 400, msg: "This sign-in message has expired, please sign again" });

    const { accessToken, nonce: stale } = await signedToken();
    await t.store.db
      .updateTable("wallet_sign_in_nonces")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("nonce", "=", stale)
      .execute();
    expect(await loginOther(accessToken)).toMatchObject({ status: 400, msg: "This sign-in message has expired, please sign again" });
  });

  it("refuses a message for another site or origin, another chain, or with a nonce not issued here", async () => {
    const cases: [string, string][] = [
      [
        (await signedToken(undefined, { uri: "https://evil.example/login" })).accessToken,
        "This sign-in message is for another address (https://evil.example/login), not https://sparkera.test",
      ],
      [
        (await signedToken(undefined, { uri: "http://sparkera.test/login" })).accessToken,
        "This sign-in message is for another address (http://sparkera.test/login), not https://sparkera.test",
      ],
      [
        (await signedToken(undefined, { domain: "evil.example" })).accessToken,
        "This sign-in message is for another site (evil.example), not sparkera.test",
      ],
      [
        (await signedToken(undefined, { chainId: 56 })).accessToken,
        `This sign-in message is for chain 56, not this site's chain ${LOCAL_CHAIN_ID}`,
      ],
      [
        (await signedToken(undefined, { nonce: "a".repeat(32) })).accessToken,
        "This sign-in message's nonce was not issued here, please sign again",
      ],
    ];
    for (const [accessToken, msg] of cases) expect(await loginOther(accessToken)).toMatchObject({ status: 400, msg });
  });

  it("refuses a wallet bound to no account", async () => {
    const { accessToken } = await signedToken(generatePrivateKey());
    expect(await loginOther(accessToken)).toMatchObject({
      status: 404,
      msg: "No account is bound to this wallet, please sign in with email and bind it first",
    });
  });

  it("refuses a forged signature without spending the nonce, and a bind signature", async () => {
    const issued = await nonce();
    const message = messageFor(demoWallet.address, issued);
    const forged = await privateKeyToAccount(generatePrivateKey()).signMessage({ message });
    expect(await loginOther(encodeSignInToken({ message, signature: forged }))).toMatchObject({
      status: 400,
      msg: "The signature does not match the wallet address",
    });
    // The owner's own signature of that message still works: the forgery did not burn the nonce.
    expect((await loginOther(encodeSignInToken({ message, signature: await demoWallet.signMessage({ message }) }))).status).toBe(200);

    const bindText = bindWalletMessage({ userName: DEMO_BROWSER_ACCOUNT.email, address: demoWallet.address, issuedAt: issued.issuedAt });
    const answer = await loginOther(
      encodeSignInToken({ message: bindText, signature: await demoWallet.signMessage({ message: bindText }) }),
    );
    expect(answer).toMatchObject({ status: 400, msg: "accessToken.message: is not a Sign-In with Ethereum (EIP-4361) message" });
  });

  it("refuses malformed input", async () => {
    const { accessToken } = await signedToken();
    const cases: [unknown, string][] = [
      [{ LoginType: "google", accessToken }, 'LoginType: must be "wallet"'],
      [{ LoginType: "wallet", accessToken: "{oops" }, "accessToken: must be the JSON wallet proof {message, signature}"],
      [{ LoginType: "wallet", accessToken: JSON.stringify({ message: "hi", signature: "0x" }) }, "accessToken.signature"],
      [{ LoginType: "wallet", accessToken: JSON.stringify({ message: 7, signature: `0x${"12".repeat(65)}` }) }, "accessToken.message"],
      [{ LoginType: "wallet", accessToken: { message: "hi" } }, "accessToken: Expected string, received object"],
      [{ LoginType: "wallet" }, "accessToken: Required"],
    ];
    for (const [body, msg] of cases) {
      const answer = await t.call("POST", "/sso/loginOther", body);
      expect(answer.status).toBe(400);
      expect(answer.msg).toContain(msg);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Hex, getAddress, verifyMessage } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { bindWalletMessage } from "~core/bind-message";
import { DEMO_BROWSER_ACCOUNT, DEMO_MANAGED_ACCOUNT, DEMO_PASSWORD } from "~core/demo";
import { createSecrets } from "../../backend/sso/shared/secrets";
import { createSsoCore } from "../../backend/sso/core";
import type { BackendOptions } from "../../backend/types";
import { startTestBackends, testBackendOptions } from "./harness";
import { type Backend, INVALID_SESSION, type SignIn, login, minutesFromNow, register } from "./sso-helpers";

let t: Backend;
/** A token's user, and the managed key the SSO unseals for its own signing (POST /sso/signOrder, the executor). */
function custody(options: BackendOptions = testBackendOptions) {
  const core = createSsoCore({ store: t.store, options });
  return {
    userOf: async (token: string) => (await core.sessions.find(token))?.user ?? null,
    managedAccount: (userId: number) => core.wallets.managedAccount(userId),
  };
}
beforeAll(async () => {
  t = await startTestBackends();
});
afterAll(() => t?.close());

async function bindRequest(userName: string, key: Hex, issuedAt = new Date().toISOString(), signer: Hex = key) {
  const address = privateKeyToAccount(key).address;
  const Signature = await privateKeyToAccount(signer).signMessage({ message: bindWalletMessage({ userName, address, issuedAt }) });
  return { LoginType: "email", BindType: 1, Address: address, UserName: userName, Signature, IssuedAt: issuedAt };
}

describe("bind-message", () => {
  it("spells the same text for any spelling of user name and address", () => {
    const issuedAt = "2025-01-01T12:00:00.000Z";
    const text = bindWalletMessage({ userName: "demo@sparkera.test", address: DEMO_BROWSER_ACCOUNT.wallet, issuedAt });
    expect(text).toBe(
      [
        "Spark Era: bind this wallet to your account.",
        "",
        "Account: demo@sparkera.test",
        "Wallet: 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        "Issued At: 2025-01-01T12:00:00.000Z",
        "",
        "Signing is free and does not send a transaction.",
      ].join("\n"),
    );
    expect(bindWalletMessage({ userName: " DEMO@sparkera.test", address: DEMO_BROWSER_ACCOUNT.wallet.toLowerCase(), issuedAt })).toBe(text);
  });
});

describe("POST /sso/bindWalletWithAccount", () => {
  let player: SignIn;
  const key = generatePrivateKey();

  beforeAll(async () => {
    player = await register(t, "binder@sparkera.test");
  });

  const bind = (body: unknown, token = player.token) => t.call<SignIn["userInfo"]>("POST", "/sso/bindWalletWithAccount", body, token);

  it("needs a live session", async () => {
    const answer = await bind(await bindRequest("binder@sparkera.test", key), "ab".repeat(32));
    expect(answer).toMatchObject({ status: 401, msg: INVALID_SESSION });
  });

  it("refuses a forged signature, another signer, a stale or future IssuedAt", async () => {
    const userName = "binder@sparkera.test";
    const fresh = await bindRequest(userName, key);
    const cases: [unknown, string][] = [
      [{ ...fresh, Signature: `0x${"12".repeat(65)}` }, "The signature does not match the wallet address"],
      [await bindRequest(userName, key, undefined, generatePrivateKey()), "The signature does not match the wallet address"],
      [{ ...fresh, IssuedAt: new Date(Date.parse(fresh.IssuedAt) + 1).toISOString() }, "The signature does not match the wallet address"],
      [await bindRequest(userName, key, minutesFromNow(-11)), "The signed message has expired, please sign again"],
      [await bindRequest(userName, key, minutesFromNow(5)), "IssuedAt lies in the future"],
      // A signature for another account does not bind this one.
      [{ ...(await bindRequest("other@sparkera.test", key)), UserName: userName }, "The signature does not match the wallet address"],
    ];
    for (const [body, msg] of cases) {
      const answer = await bind(body);
      expect(answer.status).toBe(400);
      expect(answer.msg).toContain(msg);
    }
  });

  it("refuses malformed input", async () => {
    const fresh = await bindRequest("binder@sparkera.test", key);
    const badChecksum = fresh.Address.replace(/[a-f]/, (c) => c.toUpperCase());
    const cases: [Record<string, unknown>, string][] = [
      [{ Address: badChecksum }, "Address: is not a valid wallet address (or its checksum is wrong)"],
      [{ Address: "0x1234" }, "Address: is not a valid wallet address"],
      [{ BindType: 2 }, "BindType: must be 1 (browser wallet)"],
      [{ BindType: "one" }, "BindType"],
      [{ Signature: "0xdead" }, "Signature: must be a 65-byte personal_sign signature in hex"],
      [{ IssuedAt: "yesterday" }, "IssuedAt: must be an ISO 8601 UTC time"],
      [{ IssuedAt: 1735732800000 }, "IssuedAt: Expected string, received number"],
      [{ UserName: undefined }, "UserName: Required"],
    ];
    for (const [change, msg] of cases) {
      const answer = await bind({ ...fresh, ...change });
      expect(answer.status).toBe(400);
      expect(answer.msg).toContain(msg);
    }
  });

  it("refuses a UserName other than the session's", async () => {
    const answer = await bind(await bindRequest(DEMO_BROWSER_ACCOUNT.email, key));
    expect(answer).toMatchObject({ status: 403, msg: "UserName is not the signed-in account" });
  });

  it("refuses a wallet bound to another account", async () => {
    const answer = await bind(await bindRequest("binder@sparkera.test", DEMO_BROWSER_ACCOUNT.privateKey));
    expect(answer).toMatchObject({ status: 409, msg: "This wallet is already bound to another account" });
  });

  it("binds a browser wallet given in lower case, BindType as a form string", async () => {
    const fresh = await bindRequest("binder@sparkera.test", key);
    const answer = await bind({ ...fresh, Address: fresh.Address.toLowerCase(), BindType: "1" });
    expect(answer.status, answer.msg).toBe(200);
    expect(answer.data).toMatchObject({ BindAddrType: 1, WalletAddress: getAddress(fresh.Address) });
    const info = await t.call<SignIn["userInfo"]>("GET", "/sso/getUserInfo", undefined, player.token);
    expect(info.data).toMatchObject({ BindAddrType: 1, WalletAddress: fresh.Address });
  });

  it("binds a wallet to one account only, also when two bind it at once", async () => {
    const [a, b] = await Promise.all([register(t, "racer-a@sparkera.test"), register(t, "racer-b@sparkera.test")]);
    const contested = generatePrivateKey();
    const answers = await Promise.all([
      bind(await bindRequest("racer-a@sparkera.test", contested), a.token),
      bind(await bindRequest("racer-b@sparkera.test", contested), b.token),
    ]);
    expect(answers.map((x) => x.status).sort()).toEqual([200, 409]);
    expect(answers.find((x) => x.status === 409)?.msg).toBe("This wallet is already bound to another account");
  });

  it("accepts the same binding again, but no second wallet", async () => {
    expect((await bind(await bindRequest("binder@sparkera.test", key))).status).toBe(200);
    const second = await bind(await bindRequest("binder@sparkera.test", generatePrivateKey()));
    expect(second).toMatchObject({ status: 409, msg: "A wallet is already bound to this account" });
  });
});

describe("GET /api/user/{walletAddress}", () => {
  it("tells who owns a bound wallet by its public name, never any part of the email", async () => {
    for (const address of [DEMO_BROWSER_ACCOUNT.wallet, DEMO_BROWSER_ACCOUNT.wallet.toLowerCase()]) {
      const answer = await t.call("GET", `/api/user/${address}`);
      expect(answer).toMatchObject({
        status: 200,
        data: { UserName: DEMO_BROWSER_ACCOUNT.wallet, BindAddrType: 1, WalletAddress: DEMO_BROWSER_ACCOUNT.wallet, DisplayName: null },
      });
    }
    const managed = await t.call("GET", `/api/user/${DEMO_MANAGED_ACCOUNT.wallet}`);
    expect(managed.data).toMatchObject({ UserName: DEMO_MANAGED_ACCOUNT.wallet, BindAddrType: 2 });
    expect(JSON.stringify(managed.data)).not.toMatch(/@|sparkera\.test/);
  });

  it("answers 404 for an unbound wallet and 400 for a non-address", async () => {
    const unbound = await t.call("GET", `/api/user/${privateKeyToAccount(generatePrivateKey()).address}`);
    expect(unbound).toMatchObject({ status: 404, msg: "No account is bound to this wallet" });
    for (const address of ["0x1234", "hello", DEMO_BROWSER_ACCOUNT.wallet.replace("f39F", "F39F")]) {
      expect((await t.call("GET", `/api/user/${address}`)).status).toBe(400);
    }
  });
});

describe("GET /sso/createAddress", () => {
  let player: SignIn;
  beforeAll(async () => {
    player = await register(t, "custodial@sparkera.test");
  });

  it("creates a managed wallet whose key is sealed at rest", async () => {
    const answer = await t.call<{ address: string }>("GET", "/sso/createAddress", undefined, player.token);
    expect(answer.status, answer.msg).toBe(200);
    const { address } = answer.data;
    expect(address).toBe(getAddress(address));

    const info = await t.call("GET", "/sso/getUserInfo", undefined, player.token);
    expect(info.data).toMatchObject({ BindAddrType: 2, WalletAddress: address });

    const { userOf, managedAccount } = custody();
    const owner = await userOf(player.token);
    const account = await managedAccount(owner!.id);
    expect(account?.address).toBe(address);
    const signature = await account!.signMessage({ message: "web path" });
    expect(await verifyMessage({ address: address as Hex, message: "web path", signature })).toBe(true);

    const row = await t.store.db.selectFrom("managed_wallets").selectAll().where("address", "=", address).executeTakeFirstOrThrow();
    expect(row.encrypted_key).toMatch(/^v1\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
    // The plain key is nowhere in the file-backed database.
    const dump = JSON.stringify(await t.store.sql.all("select * from managed_wallets"));
    const keyHex = (await exportKey(owner!.id)).slice(2);
    expect(dump.toLowerCase()).not.toContain(keyHex);
    expect(dump).not.toContain(Buffer.from(keyHex, "hex").toString("base64"));
  });

  it("refuses a second wallet and a missing session", async () => {
    const again = await t.call("GET", "/sso/createAddress", undefined, player.token);
    expect(again).toMatchObject({ status: 409, msg: "A wallet is already bound to this account" });
    const browser = await login(t, DEMO_BROWSER_ACCOUNT.email, DEMO_PASSWORD);
    expect((await t.call("GET", "/sso/createAddress", undefined, browser.token)).status).toBe(409);
    expect((await t.call("GET", "/sso/createAddress")).status).toBe(401);
  });

  it("cannot open a sealed key under another encryption key, or moved to another address", async () => {
    const owner = await custody().userOf(player.token);
    const otherKey = custody({ ...testBackendOptions, walletEncryptionKey: "22".repeat(32) });
    await expect(otherKey.managedAccount(owner!.id)).rejects.toThrow();

    const demo = await t.store.db
      .selectFrom("managed_wallets")
      .selectAll()
      .where("address", "=", DEMO_MANAGED_ACCOUNT.wallet)
      .executeTakeFirstOrThrow();
    await t.store.db.updateTable("managed_wallets").set({ encrypted_key: demo.encrypted_key }).where("user_id", "=", owner!.id).execute();
    await expect(custody().managedAccount(owner!.id)).rejects.toThrow();
  });

  async function exportKey(userId: number): Promise<Hex> {
    const row = await t.store.db.selectFrom("managed_wallets").selectAll().where("user_id", "=", userId).executeTakeFirstOrThrow();
    return createSecrets(testBackendOptions.walletEncryptionKey).openPrivateKey(row.encrypted_key, row.address);
  }
});

describe("seeded managed wallets", () => {
  it("hold the demo keys, sealed", async () => {
    const { userOf, managedAccount } = custody();
    const { token } = await login(t, DEMO_MANAGED_ACCOUNT.email, DEMO_PASSWORD);
    const owner = await userOf(token);
    expect(owner).toMatchObject({ bind_addr_type: 2, wallet_address: DEMO_MANAGED_ACCOUNT.wallet });
    expect((await managedAccount(owner!.id))?.address).toBe(DEMO_MANAGED_ACCOUNT.wallet);
    const dump = JSON.stringify(await t.store.sql.all("select * from managed_wallets"));
    expect(dump).not.toContain(DEMO_MANAGED_ACCOUNT.privateKey.slice(2));
  });

  it("leave browser-wallet users without a managed account", async () => {
    const { userOf, managedAccount } = custody();
    const { token } = await login(t, DEMO_BROWSER_ACCOUNT.email, DEMO_PASSWORD);
    const owner = await userOf(token);
    expect(await managedAccount(owner!.id)).toBeNull();
  });
});

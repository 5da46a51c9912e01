import { describe, expect, it } from "vitest";
import { parseEnv } from "~/services/env.server";

describe("parseEnv", () => {
  it("runs out of the box on the embedded defaults", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.embeddedBackends).toBe(true);
    expect(env.TOKEN_NAME).toBe("sessionId");
    expect(env.publicUrl).toBe("http://localhost:3000");
    expect(env.sessionSecrets).toHaveLength(1);
  });

  it("lists every bad variable in one error", () => {
    expect(() => parseEnv({ PORT: "abc", SSO_API_URL: "not a url", WALLET_ENCRYPTION_KEY: "xyz" })).toThrowError(
      /PORT[\s\S]*SSO_API_URL[\s\S]*WALLET_ENCRYPTION_KEY/,
    );
  });

  it("refuses a reserved cookie name for the token (SPEC §5)", () => {
    expect(() => parseEnv({ TOKEN_NAME: "Max-Age" })).toThrowError(/TOKEN_NAME: is a reserved cookie name/);
  });

  it("insists on a real session secret against real backends in production", () => {
    const real = { NODE_ENV: "production", SSO_API_URL: "https://sso.example", MARKET_API_URL: "https://market.example" };
    expect(() => parseEnv(real)).toThrowError(/SESSION_SECRET/);
    const env = parseEnv({ ...real, SESSION_SECRET: "new-secret-0123456789,old-secret-0123456789" });
    expect(env.sessionSecrets).toEqual(["new-secret-0123456789", "old-secret-0123456789"]);
    expect(env.embeddedBackends).toBe(false);
  });
});

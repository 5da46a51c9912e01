import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { FORGOT_RULES, LOGIN_RULES, REGISTER_RULES, SEND_CODE_RULES } from "~/domain/auth-rules";
import { ForgotPasswordSchema, LoginSchema, RegisterSchema } from "~/domain/auth-schemas";
import { problemOf, problemsOf, rule, type FormRules } from "~/domain/form-rules";
import { SellSchema, transferSchema } from "~/features/market/trade-action-schemas.server";
import { ADDRESS_MESSAGE, SELL_RULES, transferRules } from "~/features/market/trade-rules";
import { NAME_INTENTS, NAME_RULES } from "~/features/players/name-rules";
import { NameSchema } from "~/features/players/name-schemas.server";

const SENDER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("problemOf", () => {
  const digits = rule([[(text) => /^\d+$/.test(text), "Digits only"]], { missing: "Enter a number" });
  it("says missing for an empty or blank field, then the first failing check", () => {
    expect(problemOf(digits, "")).toBe("Enter a number");
    expect(problemOf(digits, "   ")).toBe("Enter a number");
    expect(problemOf(digits, " 12a ")).toBe("Digits only");
    expect(problemOf(digits, " 12 ")).toBeNull();
  });
  it("checks an untrimmed field as typed", () => {
    const exact = rule([[(text) => !/\s/.test(text), "No spaces"]], { trim: false });
    expect(problemOf(exact, " ab")).toBe("No spaces");
  });
});

/**
 * The browser and the action read the same rules: for every value tried, the message the form shows as the
 * person types is the message the action answers (Conform's reply) for that field.
 */
describe("the browser's checks agree with the action's schemas", () => {
  const emails = ["", "  ", "demo@", "Demo@SparkEra.test", " a@b.co ", "a b@c.de", `${"x".repeat(250)}@b.co`];
  const loginPasswords = ["", "abc", "abcdef", " abcde", "x".repeat(18), "x".repeat(19)];
  const newPasswords = ["", "abcdefg", "abc123", "abc 123", "密码abc123", "Demo-pass-1", "a1".repeat(10)];
  const codes = ["", "12345", "123456", " 123456 ", "12345a"];
  const prices = ["", "0", "0.000", "-1", "1e3", "1,5", "12.5", " 3 ", "0.0000000000000000001"];
  const recipients = ["", "hello", "0x123", SENDER, SENDER.toLowerCase(), "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"];

  function agree(
    rules: FormRules,
    schema: Parameters<typeof parseWithZod>[1]["schema"],
    base: Record<string, string>,
    field: string,
    values: string[],
  ) {
    for (const value of values) {
      const entries = { ...base, [field]: value };
      const data = new FormData();
      for (const [name, text] of Object.entries(entries)) data.set(name, text);
      const server = parseWithZod(data, { schema }).reply().error?.[field] ?? undefined;
      const browser = problemsOf(rules, (name) => entries[name] ?? "")[field];
      expect(browser, `${field} = ${JSON.stringify(value)}`).toEqual(server);
    }
  }

  it("login", () => {
    agree(LOGIN_RULES, LoginSchema, { password: "abcdef" }, "email", emails);
    agree(LOGIN_RULES, LoginSchema, { email: "a@b.co" }, "password", loginPasswords);
  });
  it("register, by the button pressed", () => {
    agree(SEND_CODE_RULES, RegisterSchema, { intent: "send-code" }, "email", emails);
    const filled = { intent: "register", email: "a@b.co", code: "123456", password: "Demo-pass-1" };
    agree(REGISTER_RULES, RegisterSchema, filled, "email", emails);
    agree(REGISTER_RULES, RegisterSchema, filled, "code", codes);
    agree(REGISTER_RULES, RegisterSchema, filled, "password", newPasswords);
  });
  it("each step of a password reset", () => {
    agree(FORGOT_RULES.send, ForgotPasswordSchema, { step: "send" }, "email", emails);
    agree(FORGOT_RULES.verify, ForgotPasswordSchema, { step: "verify", email: "a@b.co" }, "code", codes);
    agree(FORGOT_RULES.reset, ForgotPasswordSchema, { step: "reset", email: "a@b.co", code: "123456" }, "password", newPasswords);
  });
  it("sell and transfer", () => {
    agree(SELL_RULES, SellSchema, { currency: "FIRE" }, "price", prices);
    agree(transferRules(SENDER), transferSchema(SENDER), {}, "to", recipients);
  });
  it("a player's display name", () => {
    const names = ["", "  ", "ab", " Star Lord ", "Star  Lord", "me@x.io", "0xABC", "spark_era", "Nova-7", "x".repeat(21)];
    agree(NAME_RULES, NameSchema, { intent: NAME_INTENTS.save }, "displayName", names);
  });
  it("except a mixed-case address with a wrong checksum: only the server checks it (no keccak in the browser)", () => {
    const wrongChecksum = "0x3c44CdDdB6a900fa2b585dd299e03d12FA4293BC";
    expect(problemOf(transferRules(SENDER).to, wrongChecksum)).toBeNull();
    const data = new FormData();
    data.set("to", wrongChecksum);
    expect(parseWithZod(data, { schema: transferSchema(SENDER) }).reply().error?.to).toEqual([ADDRESS_MESSAGE]);
  });
});

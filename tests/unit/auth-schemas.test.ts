import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES, isComplexPassword, userInfoValidate } from "~/domain/auth-rules";
import { ForgotPasswordSchema, LoginSchema, RegisterSchema } from "~/domain/auth-schemas";

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0].message;

describe("login schema", () => {
  it("accepts a valid login and normalises the email", () => {
    const result = LoginSchema.safeParse({ email: "  Demo@SparkEra.test ", password: "abcdef" });
    expect(result.success && result.data.email).toBe("demo@sparkera.test");
  });
  it("quotes product §5 for a bad user name and a bad password length", () => {
    expect(firstMessage(LoginSchema.safeParse({ email: "nope", password: "abcdef" }))).toBe(AUTH_MESSAGES.userNameFormat);
    expect(firstMessage(LoginSchema.safeParse({ password: "abcdef" }))).toBe(AUTH_MESSAGES.userNameFormat);
    expect(firstMessage(LoginSchema.safeParse({ email: "a@b.co", password: "abc" }))).toBe("The password contains 6 to 18 characters");
    expect(firstMessage(LoginSchema.safeParse({ email: "a@b.co", password: "x".repeat(19) }))).toBe(AUTH_MESSAGES.passwordLength);
  });
});

describe("register schema", () => {
  it("checks only the email when sending a code, with userInfoValidate's message (it runs before the code is sent)", () => {
    expect(RegisterSchema.safeParse({ intent: "send-code", email: "a@b.co" }).success).toBe(true);
    expect(firstMessage(RegisterSchema.safeParse({ intent: "send-code", email: "bad" }))).toBe("Invalid email address");
  });
  it("checks everything when registering", () => {
    const ok = { intent: "register", email: "a@b.co", code: "123456", password: "abc123" };
    expect(RegisterSchema.safeParse(ok).success).toBe(true);
    expect(firstMessage(RegisterSchema.safeParse({ ...ok, email: "x" }))).toBe(AUTH_MESSAGES.userNameFormat);
    expect(firstMessage(RegisterSchema.safeParse({ ...ok, code: "12345" }))).toBe(AUTH_MESSAGES.code);
    expect(firstMessage(RegisterSchema.safeParse({ ...ok, password: "abcdefg" }))).toBe(
      "The password contains 6 to 18 characters, including at least letters, digits, and symbols, and does not contain Spaces",
    );
  });
});

describe("isComplexPassword", () => {
  it.each(["abc123", "abc!de", "123-456", "Demo-pass-1", "a1".repeat(9)])("accepts %j", (pw) => expect(isComplexPassword(pw)).toBe(true));
  it.each(["abcdef", "123456", "!!!!!!", "ab1", "a1".repeat(10), "abc 123", "abc123\t", "密码abc123"])("refuses %j", (pw) =>
    expect(isComplexPassword(pw)).toBe(false),
  );
});

describe("forgot password schema", () => {
  it("validates each step", () => {
    expect(ForgotPasswordSchema.safeParse({ step: "send", email: "a@b.co" }).success).toBe(true);
    expect(firstMessage(ForgotPasswordSchema.safeParse({ step: "send", email: "bad" }))).toBe(AUTH_MESSAGES.validEmail);
    expect(firstMessage(ForgotPasswordSchema.safeParse({ step: "verify", email: "a@b.co", code: "x" }))).toBe(AUTH_MESSAGES.code);
    expect(firstMessage(ForgotPasswordSchema.safeParse({ step: "reset", email: "a@b.co", code: "123456", password: "short" }))).toBe(
      AUTH_MESSAGES.passwordComplexity,
    );
  });
});

describe("userInfoValidate", () => {
  it("allows only the key email, and only a valid email", () => {
    expect(userInfoValidate("email", " A@B.co ")).toBe("a@b.co");
    expect(() => userInfoValidate("email", "nope")).toThrow("Invalid email address");
    expect(() => userInfoValidate("phone", "a@b.co")).toThrow("userInfoValidate: error key");
  });
});

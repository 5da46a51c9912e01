import { describe, expect, it } from "vitest";
import { checkHoneypot, getHoneypot } from "~/services/honeypot.server";

/** The form as the page renders it, with `changes` applied (null drops a field). */
function form(changes: Record<string, string | null> = {}) {
  const props = getHoneypot().getInputProps({ validFromTimestamp: Date.now() - 5_000 });
  const fields: Record<string, string | null> = {
    email: "a@sparkera.test",
    [props.nameFieldName]: "",
    [props.validFromFieldName!]: props.encryptedValidFrom,
    ...changes,
  };
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== null) data.set(name, value);
  return data;
}

function refusal(data: FormData): Response | null {
  try {
    checkHoneypot(data);
    return null;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

describe("checkHoneypot", () => {
  it("lets the form through as a browser posts it", () => {
    expect(refusal(form())).toBeNull();
  });

  it("refuses a post that leaves out the fields, as a bot posting by hand does", async () => {
    const posts: Record<string, null>[] = [{ name__confirm: null, from__confirm: null }, { name__confirm: null }, { from__confirm: null }];
    for (const missing of posts) {
      const response = refusal(form(missing));
      expect(response?.status, JSON.stringify(missing)).toBe(400);
      expect(await response!.text()).toBe("Form not submitted properly");
    }
  });

  it("refuses a filled trap field, a forged timestamp and one from the future", () => {
    const future = getHoneypot().getInputProps({ validFromTimestamp: Date.now() + 60_000 }).encryptedValidFrom;
    const posts: Record<string, string>[] = [{ name__confirm: "Bot" }, { from__confirm: "forged" }, { from__confirm: future }];
    for (const changes of posts) {
      expect(refusal(form(changes))?.status, JSON.stringify(changes)).toBe(400);
    }
  });

  it("refuses a timestamp that does not even decrypt, never throwing past the 400", () => {
    // Fuzzing found digit strings that make crypto-js throw "Malformed UTF-8 data" about one time in ten, and
    // ones that decrypt to a bare "7", which passed as a timestamp before only 13 digits counted.
    for (let i = 0; i < 2_000; i++) {
      const garbage = `${50591463222239050299120143n + BigInt(i) * 7919n}`;
      expect(refusal(form({ from__confirm: garbage }))?.status, garbage).toBe(400);
    }
  });
});

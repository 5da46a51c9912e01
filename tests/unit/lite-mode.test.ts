/** Why a page renders lite (services/lite-mode.server.ts): the switch, Save-Data, or a browser that runs no script. */
import { describe, expect, it } from "vitest";
import { liteCookie, liteMode, noJsCookie } from "~/services/lite-mode.server";

const request = async ({ lite, cookie = "", saveData }: { lite?: "on" | "off"; cookie?: string; saveData?: boolean }) => {
  const chosen = lite ? (await liteCookie().serialize(lite)).split(";")[0] : "";
  const headers = new Headers({ Cookie: [chosen, cookie].filter(Boolean).join("; ") });
  if (saveData) headers.set("Save-Data", "on");
  return new Request("http://localhost/home", { headers });
};

describe("liteMode", () => {
  it("is no-js for a browser that showed it runs no script, and the visitor's choice or Save-Data win over it", async () => {
    expect(await liteMode(await request({ cookie: "session=x; js=off" }))).toBe("no-js");
    expect(await liteMode(await request({ cookie: "js=off", lite: "off" }))).toBeNull();
    expect(await liteMode(await request({ cookie: "js=off", lite: "on" }))).toBe("switch");
    expect(await liteMode(await request({ cookie: "js=off", saveData: true }))).toBe("save-data");
    expect(await liteMode(await request({ cookie: "js=on; notjs=off" }))).toBeNull();
  });

  it("sets the no-JS cookie for a year, readable by the page's script so it can drop it", () => {
    expect(noJsCookie()).toMatch(/^js=off; Path=\/; Max-Age=31536000; SameSite=Lax/);
    expect(noJsCookie()).not.toMatch(/HttpOnly/i);
  });
});

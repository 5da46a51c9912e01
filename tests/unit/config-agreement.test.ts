/**
 * One configuration (issue 25): the env schema, the README's Configuration table and .env.example name the same
 * variables, so a variable added in one place only fails here.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { ENV_VARIABLES, parseEnv } from "~/services/env.server";

const root = new URL("../../", import.meta.url);
const read = (file: string) => fs.readFileSync(new URL(file, root), "utf8");

/** The names in the first column of the table under "## Configuration" (a row may name several). */
function readmeVariables(): string[] {
  const section = read("README.md")
    .split(/^## Configuration$/m)[1]
    .split(/^## /m)[0];
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...line.split("|")[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]));
}

/** NAME=value lines, commented or not. */
function exampleLines(): { name: string; value: string; active: boolean }[] {
  return read(".env.example")
    .split("\n")
    .flatMap((line) => {
      const match = /^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
      return match ? [{ name: match[2], value: match[3], active: !match[1] }] : [];
    });
}

const sorted = (names: string[]) => [...names].sort();

describe("one configuration (issue 25)", () => {
  it("the README's table lists every variable of the schema, and only those, once each", () => {
    expect(sorted(readmeVariables())).toEqual(sorted(ENV_VARIABLES));
  });

  it(".env.example lists every variable of the schema, and only those, once each", () => {
    expect(sorted(exampleLines().map((line) => line.name))).toEqual(sorted(ENV_VARIABLES));
  });

  it(".env.example's active lines are the defaults, so a copy of it starts like no configuration at all", () => {
    const active = Object.fromEntries(exampleLines().flatMap((line) => (line.active ? [[line.name, line.value]] : [])));
    expect(Object.keys(active).length).toBeGreaterThan(0);
    expect(parseEnv(active)).toEqual(parseEnv({}));
  });
});

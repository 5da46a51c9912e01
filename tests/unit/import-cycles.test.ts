/**
 * No circles of imports (issue 45): two files that import each other, directly or round a longer ring, are two files
 * that should be one, or share a piece that should move down. Type-only imports count too: they tie the files' meaning
 * together just the same, and so do bare imports run for their effect. Static imports only; a lazy `import()` is a load
 * boundary, not a layer.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const ALIASES: [string, string][] = [
  ["~/", "app/"],
  ["~core/", "core/"],
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(relative);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [relative] : [];
  });
}

function resolveImport(from: string, specifier: string): string | null {
  const alias = ALIASES.find(([prefix]) => specifier.startsWith(prefix));
  let base: string;
  if (alias) base = alias[1] + specifier.slice(alias[0].length);
  else if (specifier.startsWith(".")) base = path.join(path.dirname(from), specifier);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")]) {
    const full = path.join(ROOT, candidate);
    if (fs.existsSync(full) && fs.statSync(full).isFile()) return path.normalize(candidate);
  }
  return null;
}

/** `import … from`, `export … from`, and a bare `import "…"` (run for its effect: entry.server.tsx registers actions so). */
const STATIC_IMPORT = /^\s*(?:(?:import|export)\s[^;]*?\sfrom\s+|import\s+)["']([^"']+)["']/gm;

/** The rings of files (strongly connected groups of two or more) among `dirs`' files. */
function importRings(dirs: string[]): string[][] {
  const files = dirs.flatMap(sourceFiles);
  const inside = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const targets = [...text.matchAll(STATIC_IMPORT)].map((match) => resolveImport(file, match[1]));
    edges.set(
      file,
      targets.filter((target): target is string => target !== null && inside.has(target)),
    );
  }
  // Tarjan's strongly connected components.
  let counter = 0;
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const rings: string[][] = [];
  const visit = (file: string) => {
    order.set(file, counter);
    lowest.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file)!) {
      if (!order.has(next)) {
        visit(next);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(next)!));
      } else if (onStack.has(next)) {
        lowest.set(file, Math.min(lowest.get(file)!, order.get(next)!));
      }
    }
    if (lowest.get(file) === order.get(file)) {
      const ring: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        ring.push(member);
      } while (member !== file);
      if (ring.length > 1) rings.push(ring.sort());
    }
  };
  for (const file of files) if (!order.has(file)) visit(file);
  return rings;
}

describe("import circles", () => {
  it("finds a ring when there is one (the check can fail)", () => {
    const dir = fs.mkdtempSync(path.join(ROOT, "tests/.ring-"));
    try {
      fs.writeFileSync(path.join(dir, "a.ts"), 'import { b } from "./b";\nexport const a = b;\n');
      fs.writeFileSync(path.join(dir, "b.ts"), 'import type { c } from "./c";\nexport const b = 1 as c;\n');
      fs.writeFileSync(path.join(dir, "c.ts"), 'import "./a";\nexport type c = number;\n');
      const relative = path.relative(ROOT, dir);
      expect(importRings([relative])).toEqual([["a.ts", "b.ts", "c.ts"].map((name) => path.join(relative, name))]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(["app", "core", "server", "backend/sso", "backend/market"])("%s/ has none", (dir) => {
    expect(importRings([dir])).toEqual([]);
  });
});

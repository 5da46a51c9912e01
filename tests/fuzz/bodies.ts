/** Request bodies: form, multipart and JSON bodies of a target's fields, and the broken, deep, huge and odd ones. */
import { EDGE_STRINGS, type Gen, type Rng, garbage } from "./rng";
import { encodeValue, pct } from "./encoding";

export interface Body {
  kind: string;
  contentType?: string;
  headers?: Record<string, string>;
  body: Buffer;
}

function pickFields(r: Rng, fields: Record<string, Gen>): [string, string][] {
  const names = Object.keys(fields);
  const chosen: [string, string][] = names.filter(() => r.chance(0.65)).map((name) => [name, fields[name](r)]);
  for (let i = r.int(0, 2); i > 0; i--) chosen.push([r.chance(0.5) ? garbage(r) : r.pick(EDGE_STRINGS), garbage(r)]);
  if (chosen.length && r.chance(0.15)) chosen.push([chosen[0][0], garbage(r)]);
  return chosen;
}

function urlencoded(r: Rng, pairs: [string, string][]): string {
  return pairs.map(([key, value]) => `${encodeValue(r, key)}=${encodeValue(r, value)}`).join("&");
}

function multipart(r: Rng, pairs: [string, string][], boundary: string): string {
  const parts = pairs.map(([key, value]) => {
    const file = r.chance(0.1)
      ? `; filename="${r.pick(["a.txt", "../../x", "", "ü.png"])}"\r\nContent-Type: ${r.pick(["text/plain", "image/png", "application/json"])}`
      : "";
    return `--${boundary}\r\nContent-Disposition: form-data; name="${key.replace(/"/g, "%22")}"${file}\r\n\r\n${value}\r\n`;
  });
  return `${parts.join("")}--${boundary}--\r\n`;
}

function jsonValue(r: Rng, gen: Gen): unknown {
  return r.weighted<() => unknown>([
    [6, () => gen(r)],
    [1, () => r.int(-1e9, 1e9)],
    [1, () => r.pick([null, true, false, 1e308, -0, 0.1])],
    [1, () => [gen(r), gen(r)]],
    [1, () => ({ [garbage(r)]: gen(r), __proto__: { polluted: true } })],
  ])();
}

function deepJson(r: Rng): string {
  const depth = r.pick([100, 1000, 10_000, 40_000]);
  return r.chance(0.5) ? `${"[".repeat(depth)}${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

export function makeBody(r: Rng, fields: Record<string, Gen>, huge: boolean): Body {
  const pairs = () => pickFields(r, fields);
  const kind = r.weighted<string>([
    [30, "urlencoded"],
    [10, "multipart"],
    [6, "multipart-broken"],
    [10, "json"],
    [3, "json-deep"],
    [4, "json-broken"],
    [5, "text"],
    [6, "empty"],
    [3, "binary"],
    [4, "charset"],
    [3, "content-encoding"],
    [2, "many-fields"],
    [2, "deep-names"],
    [huge ? 2 : 0, "huge"],
  ]);
  switch (kind) {
    case "urlencoded":
      return {
        kind,
        contentType: r.pick([
          "application/x-www-form-urlencoded",
          "application/x-www-form-urlencoded; charset=UTF-8",
          "APPLICATION/X-WWW-FORM-URLENCODED",
        ]),
        body: Buffer.from(urlencoded(r, pairs()), "latin1"),
      };
    case "multipart": {
      const boundary = `----fz${r.string(16)}`;
      return { kind, contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.from(multipart(r, pairs(), boundary)) };
    }
    case "multipart-broken": {
      const boundary = `----fz${r.string(16)}`;
      const text = multipart(r, pairs(), boundary);
      return r.weighted<Body>([
        [1, { kind, contentType: "multipart/form-data", body: Buffer.from(text) }],
        [1, { kind, contentType: `multipart/form-data; boundary=other${boundary}`, body: Buffer.from(text) }],
        [
          1,
          { kind, contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.from(text.slice(0, r.int(0, text.length - 1))) },
        ],
        [
          1,
          {
            kind,
            contentType: `multipart/form-data; boundary=${boundary}`,
            body: Buffer.from(`--${boundary}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${boundary}--`),
          },
        ],
        [1, { kind, contentType: `multipart/form-data; boundary="${"b".repeat(100)}"`, body: Buffer.from(garbage(r)) }],
        [1, { kind, contentType: `multipart/mixed; boundary=${boundary}`, body: Buffer.from(text) }],
      ]);
    }
    case "json": {
      const object = Object.fromEntries(pickFields(r, fields).map(([key, value]) => [key, r.chance(0.7) ? value : jsonValue(r, garbage)]));
      const root = r.weighted<unknown>([
        [8, object],
        [1, [object]],
        [1, r.pick(["x", 1, null, true])],
      ]);
      return {
        kind,
        contentType: r.pick(["application/json", "application/json; charset=utf-8", "application/vnd.api+json", "text/json"]),
        body: Buffer.from(JSON.stringify(root)),
      };
    }
    case "json-deep":
      return { kind, contentType: "application/json", body: Buffer.from(deepJson(r)) };
    case "json-broken":
      return {
        kind,
        contentType: "application/json",
        body: Buffer.from(r.pick(["{", '{"a":', "nul", "\ufeff{}", "{'a':1}", '{"a":1,}', "[1,2", garbage(r)])),
      };
    case "text":
      return {
        kind,
        contentType: r.pick(["text/plain", "text/plain; charset=utf-8", "text/html", "application/xml"]),
        body: Buffer.from(r.chance(0.5) ? urlencoded(r, pairs()) : garbage(r)),
      };
    case "empty":
      return {
        kind,
        contentType: r.pick([
          undefined,
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "application/json",
          "text/plain",
        ]),
        body: Buffer.alloc(0),
      };
    case "binary": {
      const bytes = Buffer.alloc(r.int(1, 4096));
      for (let i = 0; i < bytes.length; i++) bytes[i] = r.int(0, 255);
      return {
        kind,
        contentType: r.pick([undefined, "application/octet-stream", "application/x-www-form-urlencoded", "application/json", "image/png"]),
        body: bytes,
      };
    }
    case "charset": {
      const type = r.pick(["application/x-www-form-urlencoded", "application/json", "text/plain", "multipart/form-data; boundary=x"]);
      const charset = r.pick(["utf-16", "utf-16le", "latin1", "bogus", "utf-7", '"', "iso-2022-jp"]);
      const text = type === "application/json" ? JSON.stringify(Object.fromEntries(pairs())) : urlencoded(r, pairs());
      return {
        kind,
        contentType: `${type}; charset=${charset}`,
        body: charset.startsWith("utf-16") ? Buffer.from(text, "utf16le") : Buffer.from(text),
      };
    }
    case "content-encoding": {
      const text = r.chance(0.5) ? urlencoded(r, pairs()) : JSON.stringify(Object.fromEntries(pairs()));
      return {
        kind,
        contentType: text.startsWith("{") ? "application/json" : "application/x-www-form-urlencoded",
        headers: { "Content-Encoding": r.pick(["gzip", "deflate", "br", "identity", "bogus", "gzip, gzip"]) },
        body: Buffer.from(text),
      };
    }
    case "deep-names": {
      // Conform builds objects and lists from field names: deep names and huge list indexes (issue 24).
      const names = r.pick([
        () => `a${"[0]".repeat(r.int(10, 20_000))}`,
        () => `a${".b".repeat(r.int(10, 20_000))}`,
        () => `a[${r.int(1000, 1e9)}]`,
      ]);
      return {
        kind,
        contentType: "application/x-www-form-urlencoded",
        body: Buffer.from(Array.from({ length: r.int(1, 100) }, () => `${names()}=1`).join("&")),
      };
    }
    case "many-fields": {
      const count = r.pick([1001, 5000, 20_000]);
      return {
        kind,
        contentType: "application/x-www-form-urlencoded",
        body: Buffer.from(Array.from({ length: count }, (_, i) => `f${i}=${i}`).join("&")),
      };
    }
    default: {
      // Over every parser's limit: a 1 MB form value, JSON string or part.
      const big = "x".repeat(1_048_576);
      const field = r.pick(Object.keys(fields).concat("big"));
      return r.weighted<Body>([
        [1, { kind, contentType: "application/x-www-form-urlencoded", body: Buffer.from(`${pct(field)}=${big}`) }],
        [1, { kind, contentType: "application/json", body: Buffer.from(JSON.stringify({ [field]: big })) }],
        [1, { kind, contentType: "multipart/form-data; boundary=big", body: Buffer.from(multipart(r, [[field, big]], "big")) }],
      ]);
    }
  }
}

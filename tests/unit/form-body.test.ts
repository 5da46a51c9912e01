import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request as httpRequest } from "node:http";
import {
  formBodiesOnly,
  isDataRequest,
  isWithinFormBounds,
  LENGTH_REQUIRED,
  MAX_BODY_BYTES,
  MAX_FORM_FIELDS,
  mediaType,
  NOT_A_FORM,
  NOT_OUR_FIELDS,
  TOO_LARGE,
} from "../../server/form-body";

let baseUrl: string;
let server: Server;

beforeAll(async () => {
  const app = express();
  app.use(formBodiesOnly());
  // Stands for Remix: reads the body as an action would, the one the gate read or the stream it left alone.
  app.all("*", async (req, res) => {
    const chunks: Buffer[] = Buffer.isBuffer(req.body) ? [req.body] : [];
    if (!Buffer.isBuffer(req.body)) for await (const chunk of req) chunks.push(chunk as Buffer);
    res.send(`reached ${Buffer.concat(chunks).toString()}`);
  });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (path: string, body: BodyInit | undefined, contentType?: string, method = "POST") =>
  fetch(baseUrl + path, { method, body, headers: contentType ? { "content-type": contentType } : {} });

describe("formBodiesOnly", () => {
  it("lets a urlencoded form through, whatever its parameters", async () => {
    for (const type of ["application/x-www-form-urlencoded", "Application/X-WWW-Form-Urlencoded;charset=UTF-8"]) {
      const response = await post("/login", "email=a%40b.c", type);
      expect(response.status, type).toBe(200);
      expect(await response.text()).toBe("reached email=a%40b.c");
    }
  });

  it("refuses every other body of an action method with a 415 page", async () => {
    const cases: [BodyInit | undefined, string | undefined][] = [
      ['{"email":"a@b.c"}', "application/json"],
      ["email=a@b.c", "text/plain"],
      ["--x\r\nnot a part", "multipart/form-data; boundary=x"],
      ["x", "multipart/form-data"],
      [new Uint8Array([1, 2, 3]), undefined],
      [undefined, undefined],
    ];
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      for (const [body, type] of cases) {
        const response = await post("/marketplace/detail?tokenId=1", body, type, method);
        expect(response.status, `${method} ${type}`).toBe(415);
        expect(response.headers.get("content-type")).toContain("text/html");
        expect(await response.text()).toContain(NOT_A_FORM);
      }
    }
  });

  it("refuses a body over 100 KB, or one that does not say its length, before anything reads it", async () => {
    const form = "application/x-www-form-urlencoded";
    expect((await post("/login", `x=${"a".repeat(MAX_BODY_BYTES - 2)}`, form)).status).toBe(200);
    const large = await post("/login", `x=${"a".repeat(MAX_BODY_BYTES)}`, form);
    expect(large.status).toBe(413);
    expect(await large.text()).toContain(TOO_LARGE);
    // A chunked body of unknown length, as a script would stream hundreds of megabytes.
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${baseUrl}/login.data`, { method: "POST", headers: { "content-type": form } }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, body }));
      });
      req.on("error", reject);
      req.write("x=1");
      req.end();
    });
    expect(chunked.status).toBe(411);
    expect(JSON.parse(chunked.body)).toEqual({ error: LENGTH_REQUIRED });
  });

  it("refuses a form whose field names would build huge or deep structures, with a 400 page", async () => {
    const form = "application/x-www-form-urlencoded";
    for (const body of [
      `a${"[0]".repeat(20_000)}=1`,
      Array.from({ length: 100 }, (_, i) => `a[${i * 30_000}]=1`).join("&"),
      Array.from({ length: MAX_FORM_FIELDS + 1 }, (_, i) => `f${i}=1`).join("&"),
    ]) {
      const response = await post("/login", body, form);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain(NOT_OUR_FIELDS);
    }
  });

  it("answers Remix's data requests in JSON", async () => {
    for (const path of ["/login.data", "/_root.data", "/login?_data=routes%2Flogin", "/marketplace/detail?tokenId=1&_data=root"]) {
      const response = await post(path, "{}", "application/json");
      expect(response.status, path).toBe(415);
      expect(await response.json()).toEqual({ error: NOT_A_FORM });
    }
  });

  it("leaves reads alone", async () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      expect((await fetch(`${baseUrl}/login`, { method, headers: { "content-type": "application/json" } })).status, method).toBe(200);
    }
  });
});

describe("the helpers", () => {
  it("bound a form's fields: how many, how long, how deep, how large a list index", () => {
    for (const good of ["email=a%40b.c&password=x", "items[0].id=1&items[999].id=2", `${"a.".repeat(8)}b=1`, "x=[99999]"])
      expect(isWithinFormBounds(good), good).toBe(true);
    for (const bad of ["a[1000]=1", "a%5B1000%5D=1", `${"a.".repeat(9)}b=1`, `${"n".repeat(201)}=1`, "a[0][0][0][0][0][0][0][0][0]=1"])
      expect(isWithinFormBounds(bad), bad).toBe(false);
  });

  it("reads a media type without its parameters", () => {
    expect(mediaType(undefined)).toBe("");
    expect(mediaType(" Multipart/Form-Data ; boundary=x")).toBe("multipart/form-data");
  });

  it("tells Remix's data requests from documents", () => {
    expect(isDataRequest("/marketplace/detail.data?tokenId=1")).toBe(true);
    expect(isDataRequest("/login?_data=routes%2Flogin")).toBe(true);
    expect(isDataRequest("/login?redirect=%2Fa.data")).toBe(false);
    expect(isDataRequest("/metadata")).toBe(false);
  });
});

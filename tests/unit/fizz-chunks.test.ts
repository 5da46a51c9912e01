/**
 * React 18's renderer sends a 2 KB view with its last bytes unwritten (zero) when a multi-byte character does not fit:
 * the pages held U+0000 ("Type: Hero cards \0\0✕", "favorites \0· 61 views"). writtenPart keeps what it wrote.
 */
import { Writable } from "node:stream";
import { createElement as h, Suspense } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FIZZ_VIEW_BYTES, writtenPart } from "~/services/fizz-chunks.server";

/** The page as React streams it: `ascii` letters, then 650 em dashes (3 bytes each) across the first view's end. */
function streamed(ascii: number): Promise<Buffer[]> {
  const page = h(Suspense, { fallback: null }, h("main", null, "b".repeat(200), h("p", null, "a".repeat(ascii) + "—".repeat(650))));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const { pipe } = renderToPipeableStream(page, {
      onShellError: reject,
      onAllReady() {
        pipe(
          new Writable({
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk);
              done();
            },
            final(done) {
              resolve(chunks);
              done();
            },
          }),
        );
      },
    });
  });
}

describe("writtenPart", () => {
  it("takes the zeros React left at a view's end out, so the page is the one React meant, for every alignment", async () => {
    let padded = 0;
    for (let ascii = 0; ascii < 6; ascii++) {
      const chunks = await streamed(ascii);
      if (Buffer.concat(chunks).includes(0)) padded += 1;
      const page = Buffer.concat(chunks.map((chunk) => writtenPart(chunk))).toString("utf8");
      expect(page).not.toContain("\0");
      expect(page).toContain(`<p>${"a".repeat(ascii)}${"—".repeat(650)}</p>`);
    }
    // React 18 pads at most alignments of this page: the check above is not vacuous.
    expect(padded).toBeGreaterThan(0);
  });

  it("leaves chunks of other sizes and full views without trailing zeros as they are", () => {
    const full = new Uint8Array(FIZZ_VIEW_BYTES).fill(97);
    expect(writtenPart(full)).toBe(full);
    const short = new Uint8Array([97, 0, 0]);
    expect(writtenPart(short)).toBe(short);
    const padded = new Uint8Array(FIZZ_VIEW_BYTES).fill(97);
    padded.fill(0, FIZZ_VIEW_BYTES - 2);
    expect(writtenPart(padded).byteLength).toBe(FIZZ_VIEW_BYTES - 2);
  });

  it("keeps renderToString's page for the same tree", async () => {
    const page = Buffer.concat((await streamed(0)).map((chunk) => writtenPart(chunk))).toString("utf8");
    expect(page).toContain(renderToString(h("p", null, "—".repeat(650))));
  });
});

/**
 * Issue 44, decision 0025: server markup travels once in a document. For a document request the loader data names
 * the markup by a key (a hash of it, so the same page renders the same bytes) and the request's scope keeps it for
 * the render; for a .data request, and outside a request, the loader data carries the markup itself.
 */
import { describe, expect, it } from "vitest";
import { requestScope, type RequestScope } from "~/services/request-scope.server";
import { serverMarkup } from "~/services/server-html.server";

const scope = (document: boolean): RequestScope => ({ clientIp: "203.0.113.7", deadline: Date.now() + 1000, document });
const HTML = '<section aria-label="The numbers of this view"><p>3 sales</p></section>';

describe("serverMarkup", () => {
  it("keeps a document's markup in the request's scope and names it by a key", () => {
    const document = scope(true);
    const markup = requestScope.run(document, () => serverMarkup(HTML));
    expect(markup.html).toBeNull();
    expect(markup.key).toMatch(/^[\w-]{16}$/);
    // Not a nonce's 32 hex digits: the bench and the page cache's checks mask those.
    expect(markup.key).not.toMatch(/^[0-9a-f]{32}$/);
    expect(document.markup?.get(markup.key)).toBe(HTML);
    // The same markup gets the same key in another request: a page renders the same bytes each time.
    expect(requestScope.run(scope(true), () => serverMarkup(HTML)).key).toBe(markup.key);
    expect(requestScope.run(scope(true), () => serverMarkup(`${HTML} `)).key).not.toBe(markup.key);
  });

  it("carries the markup itself for a .data request, outside a request, and when there is none", () => {
    expect(requestScope.run(scope(false), () => serverMarkup(HTML))).toEqual({ key: "", html: HTML });
    expect(serverMarkup(HTML)).toEqual({ key: "", html: HTML });
    const document = scope(true);
    expect(requestScope.run(document, () => serverMarkup(""))).toEqual({ key: "", html: "" });
    expect(document.markup).toBeUndefined();
  });
});

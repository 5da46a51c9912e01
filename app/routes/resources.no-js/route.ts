/**
 * GET /resources/no-js: asked for only by a page's <noscript> image (components/page-scripts.tsx), so only by a
 * browser that runs no script. It sets the no-JS cookie, and the next pages come without scripts (issue 23).
 */
import { noJsCookie } from "~/services/lite-mode.server";

/** A transparent 1×1 GIF. */
const PIXEL = "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7";

export const loader = () =>
  new Response(Buffer.from(PIXEL, "base64"), {
    headers: { "Content-Type": "image/gif", "Cache-Control": "no-store", "Set-Cookie": noJsCookie() },
  });

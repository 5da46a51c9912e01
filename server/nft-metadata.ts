import type { RequestHandler } from "express";
import helmet from "helmet";

/**
 * The NFT metadata documents (/nft/card/{id}.json, /nft/items/{id}.json, /nft/box/{boxId}/{boxType};
 * app/services/nft-metadata.server.ts) are public JSON that wallets and other markets fetch from their own origins:
 * not pages. They get a JSON answer when rate limited, a CORS preflight, and security headers of their own (no page
 * CSP with a nonce; any origin may read).
 */
export const METADATA_PREFIX = "/nft/";

export function isMetadataPath(pathname: string): boolean {
  return pathname.startsWith(METADATA_PREFIX);
}

/** The link-preview images (/og/…png, app/features/share): another site's page may show them too. */
export function isPreviewPath(pathname: string): boolean {
  return pathname.startsWith("/og/");
}

/**
 * A cross-origin fetch that sets If-None-Match itself is preflighted: answer it, before the origin check (which
 * refuses other sites' non-GET requests to pages) would.
 */
export const metadataPreflight: RequestHandler = (req, res, next) => {
  if (req.method !== "OPTIONS" || !isMetadataPath(req.path)) return next();
  res
    .status(204)
    .set({
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Methods": "GET, HEAD",
      "Access-Control-Allow-Headers": "If-None-Match",
      "Access-Control-Max-Age": "86400",
      "Cache-Control": "public, max-age=86400",
    })
    .end();
};

/** Security headers of a document any site may read (metadata JSON, a preview PNG): nothing may run or load from it, nor frame it. */
export const metadataSecurityHeaders: RequestHandler = helmet({
  xPoweredBy: false,
  referrerPolicy: { policy: "no-referrer" },
  crossOriginResourcePolicy: { policy: "cross-origin" },
  crossOriginEmbedderPolicy: false,
  contentSecurityPolicy: { useDefaults: false, directives: { "default-src": ["'none'"], "frame-ancestors": ["'none'"] } },
});

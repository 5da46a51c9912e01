import fs from "node:fs";
import type { RequestHandler } from "express";

/**
 * public/'s files, served only for the paths under its own top-level entries (issue 44): express.static stats the
 * file system for every request it sees, and a page's path (/marketplace/market) is never a file. The entries are
 * read once, at start: public/ is part of the deploy, like the build.
 */
export function publicFiles(dir: string, serve: RequestHandler): RequestHandler {
  const entries = new Set(fs.existsSync(dir) ? fs.readdirSync(dir) : []);
  return (req, res, next) => (entries.has(firstSegment(req.path)) ? serve(req, res, next) : next());
}

/** "/images/a.png" → "images"; "/favicon.svg" → "favicon.svg"; "/" → "". Percent-escapes decoded, as the file server does. */
export function firstSegment(path: string): string {
  const segment = path.split("/", 2)[1] ?? "";
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

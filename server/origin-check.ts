import type { Request, RequestHandler } from "express";
import { LOCAL_HOSTS } from "../app/services/env-values.server";
import { apiPrefixOf } from "./api-paths";

/**
 * The origins our own pages post from: PUBLIC_URL's, and on a local deployment the same port under every
 * loopback name (the site is reachable as localhost and 127.0.0.1 alike).
 */
export function allowedOrigins(publicUrl: string): Set<string> {
  const url = new URL(publicUrl);
  const origins = new Set([url.origin]);
  if (LOCAL_HOSTS.has(url.hostname)) {
    for (const host of LOCAL_HOSTS) origins.add(`${url.protocol}//${host}${url.port ? `:${url.port}` : ""}`);
  }
  return origins;
}

/**
 * Whether a state-changing request may have come from another site. Origin decides when present ("null"
 * included, as sandboxed frames send it); else Sec-Fetch-Site. A request with neither comes from no browser
 * that could carry a victim's cookie, so it passes.
 */
export function isCrossSiteRequest(headers: Request["headers"], allowed: Set<string>): boolean {
  const origin = headers.origin;
  if (typeof origin === "string") return !allowed.has(origin);
  const site = headers["sec-fetch-site"];
  if (typeof site === "string") return site !== "same-origin" && site !== "none";
  return false;
}

const REFUSED_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Request refused | Spark Era</title></head><body><main><h1>Request refused</h1><p>This request was sent to Spark Era from another site, so nothing was done. If you meant to do this, open Spark Era and try again from there.</p><p><a href="/home">Go to Spark Era</a></p></main></body></html>`;

/**
 * CSRF defence for every non-GET/HEAD request to the app (documents, `?_data=`, `.data`, resource routes):
 * a cross-site one gets a 403 page and never reaches an action. The backend APIs are not cookie-authenticated
 * and keep their own rules.
 */
export function originCheck({ publicUrl, apiPaths }: { publicUrl: string; apiPaths: string[] }): RequestHandler {
  const allowed = allowedOrigins(publicUrl);
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const pathname = req.originalUrl.split("?", 1)[0];
    if (apiPrefixOf(pathname, apiPaths)) return next();
    if (isCrossSiteRequest(req.headers, allowed)) {
      res.status(403).set("Cache-Control", "no-store").type("html").send(REFUSED_PAGE);
      return;
    }
    // Checked against PUBLIC_URL here. Remix would compare Origin with Host again, and behind a proxy that
    // rewrites Host it would throw (a 500) on every legitimate post.
    delete req.headers.origin;
    next();
  };
}

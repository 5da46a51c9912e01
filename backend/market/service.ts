// TEMPORARY STUB — replaced by the market service implementation.
import express from "express";
import type { BackendContext, SsoAuth } from "../types";

export function createMarketService(_ctx: BackendContext, _auth: SsoAuth) {
  return { router: express.Router() };
}

// TEMPORARY STUB — replaced by the SSO service implementation.
import express from "express";
import type { BackendContext, SsoAuth } from "../types";

export function createSsoService(_ctx: BackendContext) {
  const auth: SsoAuth = {
    ownerOfToken: async () => null,
    managedAccount: async () => null,
  };
  return { router: express.Router(), devRouter: express.Router(), auth };
}

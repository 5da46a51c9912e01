import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { startBackends, type BackendOptions } from "../../backend";
import { CLIENT_IP_HEADER, INTERNAL_TOKEN_HEADER } from "~core/internal-call";
import { DEV_CLAIM_SIGNER_KEY } from "~core/demo";
import { LOCAL_CHAIN_ID } from "~core/constants";
import { freshDatabase, seededTemplateOnce } from "./engine";

export const testBackendOptions: BackendOptions = {
  walletEncryptionKey: "11".repeat(32),
  claimSignerKey: DEV_CLAIM_SIGNER_KEY,
  chainId: LOCAL_CHAIN_ID,
  signInDomain: "sparkera.test",
  tokenTtlSeconds: 3600,
  exposeDevOutbox: true,
  seedDemo: true,
  internalToken: "test-internal-token",
  // Nothing answers here: startTestBackends points the market at its own server; a bare market test looks up no token.
  ssoApi: { baseUrl: "http://127.0.0.1:9" },
  // The floor is tested on its own (sso-register.test.ts); the other tests send codes by the dozen.
  codeAnswerFloorMs: 0,
};

/**
 * Starts the embedded backends on a fresh temporary SQLite file, served over real HTTP on a free port. The market
 * asks this same server's SSO whose a token is, as the app's server does (`ssoApi`).
 */
export async function startTestBackends(overrides: Partial<BackendOptions> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spark-backend-"));
  return serveTestBackends(
    overrides,
    async (options) => {
      // The demo seed depends only on the wallet encryption key: with the default one, a copy of a seeded database will do.
      const template =
        options.seedDemo && options.walletEncryptionKey === testBackendOptions.walletEncryptionKey
          ? await seededTemplateOnce(async (url) => (await startBackends(url, { ...testBackendOptions, seedDemo: true })).close())
          : undefined;
      return freshDatabase(dir, "test", template);
    },
    () => fs.rmSync(dir, { recursive: true, force: true }),
  );
}

/**
 * The embedded backends with `overrides` on the database `database` names (given the options), served over real HTTP
 * on a free port, the market asking this same server's SSO whose a token is; `cleanUp` runs once they are closed.
 */
export async function serveTestBackends(
  overrides: Partial<BackendOptions>,
  database: (options: BackendOptions) => Promise<string>,
  cleanUp: () => void = () => {},
) {
  const app = express();
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const options: BackendOptions = {
    ...testBackendOptions,
    ssoApi: { baseUrl, internalToken: testBackendOptions.internalToken },
    ...overrides,
  };
  const backends = await startBackends(await database(options), options).catch(async (error: unknown) => {
    await new Promise((resolve) => server.close(resolve));
    throw error;
  });
  app.use(backends.router);

  return {
    baseUrl,
    store: backends.store,
    /** The market's chain indexer, when `chain` is in the options. */
    indexer: backends.indexer,
    /**
     * JSON request helper; returns the HTTP status and the parsed envelope. With `clientIp` the request speaks
     * for that browser address the way the app's own calls do (internal token + x-spark-client-ip).
     */
    async call<T = unknown>(method: string, pathAndQuery: string, body?: unknown, token?: string, clientIp?: string) {
      const response = await fetch(baseUrl + pathAndQuery, {
        method,
        headers: {
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(token ? { authToken: token } : {}),
          ...(clientIp === undefined ? {} : { [INTERNAL_TOKEN_HEADER]: options.internalToken ?? "", [CLIENT_IP_HEADER]: clientIp }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await response.json()) as { code: number; msg: string; data: T; success: boolean };
      return { status: response.status, ...json };
    },
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await backends.close();
      cleanUp();
    },
  };
}

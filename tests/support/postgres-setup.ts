import { CLUSTER_URL_ENV, startPostgresCluster } from "./postgres";

/**
 * Vitest globalSetup of the "backend-postgres" project: one cluster per run. It runs in the main process before
 * the project's workers start, and the workers (forks) inherit its environment, so the URL travels in process.env;
 * that also reaches code outside vitest's inject (the harness's own helpers).
 */
export default async function setup(): Promise<() => Promise<void>> {
  const cluster = await startPostgresCluster();
  process.env[CLUSTER_URL_ENV] = cluster.url;
  return () => cluster.stop();
}

import { sql } from "kysely";
import { seedSso } from "./sso/seed";
import { seedMarket } from "./market/seed";
import type { BackendContext } from "./types";

/** Seeds the demo data once: when the database holds no user yet. Processes starting at once seed it once. */
export function seedIfEmpty(ctx: BackendContext): Promise<boolean> {
  return ctx.store.exclusively("demo-seed", async () => {
    const { rows } = await sql<{ n: number }>`select count(*) as n from users`.execute(ctx.store.db);
    if (Number(rows[0].n) > 0) return false;
    await seedSso(ctx);
    await seedMarket(ctx);
    return true;
  });
}

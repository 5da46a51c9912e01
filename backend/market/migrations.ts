import type { Migration } from "../db/migrate";

export const marketMigrations: Migration[] = [];

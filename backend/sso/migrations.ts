import type { Migration } from "../db/migrate";

export const ssoMigrations: Migration[] = [];

/** backend/db/ imports the market by this path; the code lives in shared/shards.ts (issue 45). */
export * from "./shared/shards";

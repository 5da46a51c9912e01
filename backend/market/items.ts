/** backend/db/ imports the market by this path; the code lives in shared/items.ts (issue 45). */
export * from "./shared/items";

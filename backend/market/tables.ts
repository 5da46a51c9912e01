/** backend/db/ imports the market by this path; the code lives in shared/tables.ts (issue 45). */
export * from "./shared/tables";

/** backend/db/ imports the market by this path; the code lives in shared/sale-days.ts (issue 45). */
export * from "./shared/sale-days";

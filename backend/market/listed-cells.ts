/** backend/db/ imports the market by this path; the code lives in stats/listed-cells.ts (issue 45). */
export * from "./stats/listed-cells";

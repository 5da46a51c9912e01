/**
 * Input contract of the market API: every query string and body goes through one of these Zod schemas,
 * one file per group of routes, all built from the parameter parsers in params.ts.
 */
export * from "./params";
export * from "./listing-schemas";
export * from "./order-schemas";
export * from "./game-schemas";
export * from "./stats-schemas";
export * from "./invite-schemas";

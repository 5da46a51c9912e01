import type { ZodType, ZodTypeDef } from "zod";
import { parseInput } from "../http";

/**
 * parseInput, typed by the schema's output. http.ts's `ZodType<T>` makes input and output the same type,
 * which schemas with transforms (checksummed addresses, JSON-in-a-string) cannot satisfy.
 */
export function parseBody<T>(schema: ZodType<T, ZodTypeDef, unknown>, input: unknown): T {
  return parseInput(schema as ZodType<T>, input ?? {});
}

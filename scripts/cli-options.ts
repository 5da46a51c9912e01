/** The command-line options of the scripts and benchmarks, named with their defaults. */
import { parseArgs, type ParseArgsConfig } from "node:util";

type Defaults = Record<string, string | boolean>;
type Values<D extends Defaults> = { [K in keyof D]: D[K] extends boolean ? boolean : string };

/**
 * The process's options: each key of `defaults` is one, `--name value` where its default is text, a `--name` flag
 * where it is a boolean. An option not named there throws, as parseArgs does.
 */
export function cliOptions<D extends Defaults>(defaults: D): Values<D> {
  const options: ParseArgsConfig["options"] = {};
  for (const [name, value] of Object.entries(defaults)) {
    options[name] = typeof value === "boolean" ? { type: "boolean", default: value } : { type: "string", default: value };
  }
  return parseArgs({ options }).values as Values<D>;
}

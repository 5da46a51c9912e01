// TEMPORARY STUB — replaced by the SSO seed.
import type { BackendContext } from "../types";

export async function seedSso(_ctx: BackendContext): Promise<void> {}

// TEMPORARY STUB — replaced by the market seed.
import type { BackendContext, SsoAuth } from "../types";

export async function seedMarket(_ctx: BackendContext, _auth: SsoAuth): Promise<void> {}

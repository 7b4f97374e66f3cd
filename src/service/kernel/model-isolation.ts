import { localIsolation, type Isolation } from "../../participant/isolation.js";
import type { ServiceContext } from "./context.js";

/** How the lanes run uploaded model files: the context's choice, else the machine's (sandboxed when it can). */
export async function modelIsolation(ctx: ServiceContext): Promise<Isolation> {
  return ctx.modelIsolation ?? (await localIsolation());
}

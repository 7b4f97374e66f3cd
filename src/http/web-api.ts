import { AGENT_STREAM_PATH } from "./live-stream.js";
import { routes } from "./route.js";
import type { WebAsset } from "./web-assets.js";

/**
 * The web app's module of the REST paths its pages read (`/web/api.js`), written from the contract
 * so that no page spells a path of its own: `pathOf("get_round_board", exped)`.
 */
export function webApiModule(): WebAsset {
  const paths = Object.fromEntries(routes.filter((r) => r.method === "GET").map((r) => [r.operationId, r.path]));
  const text =
    "// The REST paths the pages read, served from the service's contract (src/contract).\n" +
    `const paths = ${JSON.stringify(paths)};\n` +
    `export const AGENT_STREAM_PATH = ${JSON.stringify(AGENT_STREAM_PATH)};\n` +
    "/** The path of the endpoint `id` (its operationId), its parameters filled in order. */\n" +
    "export function pathOf(id, ...params) {\n" +
    "  let i = 0;\n" +
    "  return paths[id].replace(/\\{\\w+\\}/g, () => encodeURIComponent(params[i++]));\n" +
    "}\n";
  return { type: "text/javascript; charset=utf-8", bytes: new TextEncoder().encode(text) };
}

import { readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The web app's files: src/web in a checkout, dist/src/web in the package (copied by the build). */
const WEB_DIR = fileURLToPath(new URL("../web/", import.meta.url));

/** No asset of the app is larger; a bigger file in src/web stops the server from starting. */
export const MAX_ASSET_BYTES = 256 * 1024;

/**
 * What every page and asset of the app is served with: scripts, styles and connections from this
 * origin only (no inline script or style), never framed, no referrer sent.
 */
export const WEB_HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cache-control": "no-cache",
};

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

export interface WebAsset {
  type: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/** The app's files by name, read once (each bounded by MAX_ASSET_BYTES). */
export function loadWebAssets(dir = WEB_DIR): Map<string, WebAsset> {
  const assets = new Map<string, WebAsset>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    if (type === undefined) continue;
    const path = join(dir, name);
    const size = statSync(path).size;
    if (size > MAX_ASSET_BYTES) throw new Error(`web asset ${path} is ${size} bytes; the limit is ${MAX_ASSET_BYTES}`);
    assets.set(name, { type, bytes: new Uint8Array(readFileSync(path)) });
  }
  return assets;
}

/** An asset as a response, with the app's headers. */
export function assetResponse(asset: WebAsset): Response {
  return new Response(asset.bytes, { headers: { "content-type": asset.type, "content-length": String(asset.bytes.byteLength), ...WEB_HEADERS } });
}

import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The folder holding Basecamp's package.json: the checkout, or the installed package (whose code runs from dist/). */
const root = (function find(dir: string): string {
  if (existsSync(join(dir, "package.json"))) return dir;
  if (dirname(dir) === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
  return find(dirname(dir));
})(dirname(fileURLToPath(import.meta.url)));

/** A file shipped beside the code (`scenarios/…`, `data/samples/…`), by its path from the package's root. */
export function packageFile(path: string): string {
  return join(root, path);
}

/**
 * Runs every `*.bench.ts` in this folder in name order (`npm run bench`), or only those whose
 * name contains one of the arguments (`npm run bench -- settlement`). A bench module either
 * exports `run()` or does its work when imported.
 */
import { readdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts") && (only.length === 0 || only.some((o) => f.includes(o))))
  .sort();

for (const file of benches) {
  const mod = (await import(pathToFileURL(`${here}/${file}`).href)) as { run?: () => unknown };
  if (typeof mod.run === "function") await mod.run();
}

/**
 * Runs every `*.bench.ts` in this folder in name order (`npm run bench`), or only those whose
 * name contains one of the arguments (`npm run bench -- settlement`). Each bench runs in a process
 * of its own, so one bench's heap and peak RSS never show in another's figures. A bench module
 * either exports `run()` or does its work when imported.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const [mode, file] = process.argv.slice(2);

if (mode === "--child") {
  const mod = (await import(pathToFileURL(`${here}/${file}`).href)) as { run?: () => unknown };
  if (typeof mod.run === "function") await mod.run();
} else {
  const only = process.argv.slice(2);
  const tsx = createRequire(import.meta.url).resolve("tsx/cli");
  const benches = readdirSync(here)
    .filter((f) => f.endsWith(".bench.ts") && (only.length === 0 || only.some((o) => f.includes(o))))
    .sort();
  for (const bench of benches) {
    const child = spawnSync(process.execPath, [tsx, fileURLToPath(import.meta.url), "--child", bench], { stdio: "inherit" });
    if (child.status !== 0) process.exit(child.status ?? 1);
  }
}

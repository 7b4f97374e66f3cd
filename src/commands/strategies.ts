import type { Command } from "commander";

/** `basecamp strategies`: the built-in strategies a scenario can name. */
export function registerStrategiesCommand(program: Command): void {
  program
    .command("strategies")
    .description("list the built-in strategies a scenario's agents can use")
    .action(async () => {
      const all = (await import("../../sim/agents/registry.js")).listStrategies();
      const width = Math.max(...all.map((s) => s.name.length));
      for (const s of all) process.stdout.write(`${s.name.padEnd(width)}  ${s.kind.padEnd(10)}  ${s.summary}\n`);
      process.stdout.write("\nor a file, by path: a Python strategy (.py), a model file (.pkl), a TypeScript/JavaScript module (.ts, .js, .mjs), a predictions file (.csv, .parquet)\n");
    });
}

import type { Command } from "commander";

/** `basecamp score <file>`: CORR, AIMC and NCORR per exped of a predictions file, and their summary. */
export function registerScoreCommand(program: Command): void {
  program
    .command("score")
    .description("score a predictions file offline: CORR, AIMC and NCORR per exped, and their summary")
    .argument("<file>", ".csv or .parquet with columns id, exped, prediction, target, v1_designated and the core columns")
    .option("--core <columns>", "comma-separated core feature columns for NCORR", "")
    .option("--json", "print the report as JSON")
    .action(async (file: string, opts: { core: string; json?: boolean }) => {
      const core = opts.core.split(",").map((s) => s.trim()).filter(Boolean);
      const { formatScoreReport, scoreFile, scoreFileTerms } = await import("./score.js");
      try {
        process.stdout.write(opts.json ? JSON.stringify(await scoreFileTerms(file, { core })) + "\n" : formatScoreReport(await scoreFile(file, { core })));
      } catch (err) {
        throw new Error(`${file}: ${(err as Error).message}`);
      }
    });
}

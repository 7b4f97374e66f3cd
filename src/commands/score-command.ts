import type { Command } from "commander";

/** `basecamp score <file>`: CORR, AIMC and NCORR per exped of a predictions file, and their summary. */
export function registerScoreCommand(program: Command): void {
  program
    .command("score")
    .description("score a predictions file offline: CORR, AIMC and NCORR per exped, and their summary")
    .argument("<file>", ".csv or .parquet with columns id, exped (or era), prediction, target, v1_designated and the core columns")
    .option("--core <columns>", "comma-separated core feature columns for NCORR", "")
    .option("--json", "print the report as JSON")
    .action(async (file: string, opts: { core: string; json?: boolean }) => {
      const core = opts.core.split(",").map((s) => s.trim()).filter(Boolean);
      const { formatScoreReport, scoreFile, scoreFileTerms } = await import("./score.js");
      const onDropped = (dropped: number, read: number) => {
        if (dropped > 0) process.stderr.write(`basecamp score: ${dropped} of ${read} rows not scored: their prediction or target is not finite (empty, NaN or inf)\n`);
      };
      try {
        process.stdout.write(opts.json ? JSON.stringify(await scoreFileTerms(file, { core, onDropped })) + "\n" : formatScoreReport(await scoreFile(file, { core, onDropped })));
      } catch (err) {
        throw new Error(`${file}: ${(err as Error).message}`);
      }
    });
}

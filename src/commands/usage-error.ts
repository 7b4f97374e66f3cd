import type { Command } from "commander";

/**
 * Commander reports a usage mistake (an unknown option or command, a missing argument) in the
 * house style: one line, `basecamp: <what>`, with the command's usage as the hint instead of its
 * whole help.
 */
export function oneLineUsageErrors(program: Command): void {
  for (const cmd of [program, ...program.commands]) {
    const name = cmd.parent ? `${cmd.parent.name()} ${cmd.name()}` : cmd.name();
    cmd.configureOutput({
      outputError: (message, write) => write(`basecamp: ${message.replace(/^error: /, "").replace(/\s+/g, " ").trim()} (usage: ${name} ${cmd.usage()}; ${name} --help for more)\n`),
    });
  }
}

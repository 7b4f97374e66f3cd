import type { ChildProcess } from "node:child_process";

/** Resolves with what `stream` of `p` printed once it matches `pattern`; rejects if the process exits first. */
export function printed(p: ChildProcess, stream: "stdout" | "stderr", pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = "";
    p[stream]?.setEncoding("utf8");
    p[stream]?.on("data", (chunk: string) => {
      seen += chunk;
      if (pattern.test(seen)) resolve(seen);
    });
    p.once("exit", (code, signal) => reject(new Error(`exited (${code ?? signal}) before printing ${pattern}:\n${seen}`)));
  });
}

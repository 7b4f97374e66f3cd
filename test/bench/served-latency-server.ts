/**
 * The server of the served-latency bench, in a process of its own so that its peak RSS is the
 * server's alone: starts `startServer` on the scenario JSON given as the argument, prints
 * `{"url"}` on a line, and on SIGTERM prints `{"peak_rss_mb"}` and exits.
 */
import { startServer } from "../../src/commands/serve.js";
import { parseScenario } from "../../sim/scenario.js";

const scenario = parseScenario(JSON.parse(process.argv[2]));
const server = await startServer({ scenario, port: 0 });
console.log(JSON.stringify({ url: server.url }));
process.on("SIGTERM", () => {
  console.log(JSON.stringify({ peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024) }));
  process.exit(0);
});

import type { RunningServer } from "../../src/commands/serve.js";
import { BasecampClient, SimControl } from "../../src/sdk/client.js";

/** An SDK client of `server` whose retry sleeps move the server's simulated clock, each recorded in `sleeps`. */
export function simClockClient(server: RunningServer, apiKey: string) {
  const control = new SimControl({ baseUrl: server.url, organiserKey: server.organiserKey });
  const sleeps: number[] = [];
  const client = new BasecampClient({
    baseUrl: server.url,
    apiKey,
    sleep: async (ms) => {
      sleeps.push(ms);
      await control.advance({ seconds: ms / 1000 });
    },
  });
  return { client, control, sleeps };
}

import type { Client } from "./client.js";
import type { Service } from "./service.js";

/** The Client over a Service in the same process: what the engine's agents use. */
export function inProcessClient(service: Service, apiKey: string): Client {
  return {
    whoami: () => service.whoami(apiKey),
    getStarted: () => service.getStarted(apiKey),
    explainScoring: () => service.explainScoring(),
    currentRound: () => service.currentRound(),
    schedule: () => service.schedule(),
    instruments: () => service.instruments(),
    downloadDataset: (split) => service.downloadDataset(apiKey, split),
    downloadBenchmark: (_universe, split) => service.downloadBenchmark(apiKey, split),
    createModel: (input) => service.createModel(apiKey, input),
    getModels: () => service.getModels(apiKey),
    archiveModel: (model) => service.archiveModel(apiKey, model),
    submit: (input) => service.submit(apiKey, input),
    standings: () => service.standings(),
    roundBoard: (exped) => service.roundBoard(exped),
  };
}

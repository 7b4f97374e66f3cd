import { clientOperations } from "../contract/index.js";
import type { Client } from "./client.js";
import type { Service } from "./service.js";

/** The Client over a Service in the same process: what the engine's agents use. */
export function inProcessClient(service: Service, apiKey: string): Client {
  const operations = Object.fromEntries(clientOperations.map((name) => [name, (...args: unknown[]) => service.perform(name, apiKey, args)]));
  const own: Pick<Client, "downloadBenchmark" | "downloadModel" | "runOnMachine" | "readMachineFile"> = {
    downloadBenchmark: (_universe, split) => service.downloadBenchmark(apiKey, split),
    downloadModel: async (jobId) => (await service.downloadModel(apiKey, jobId)).bytes,
    runOnMachine: (machineId, command) => service.runOnMachine(apiKey, machineId, { command }),
    readMachineFile: async (machineId, path) => (await service.readMachineFile(apiKey, machineId, path)).bytes,
  };
  return { ...operations, ...own } as Client;
}

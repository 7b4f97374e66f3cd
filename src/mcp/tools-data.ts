import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { deliverParquet } from "./downloads.js";
import { addTool, type ToolContext } from "./tool.js";

const split = z.string().describe("train, validation or live (live only while a round is open)");

/**
 * Parquet downloads (over stdio written to a local file, whose path is the answer; over HTTP the
 * REST URL of the same file) and the benchmark catalogue.
 */
export function registerDataTools(server: McpServer, { service, key, downloads, log }: ToolContext): void {
  const prefix = service.ctx.world.dataset.spec.prefix;
  addTool(server, log, {
    name: "download_benchmark",
    description:
      "Downloads a split's benchmark predictions (index id; columns exped and v1_designated, the designated benchmark) " +
      "as a parquet file <prefix>_<split>_benchmark_models.parquet: over stdio written to this server's private download directory " +
      "(answers path), over HTTP served at download_url (GET it with your X-API-Key); with rows, index (id) and data columns. " +
      "Event keys get only the train file while an event runs.",
    input: { universe: z.literal("futures").default("futures").describe("Always futures on this service"), split },
    readOnly: true,
    run: async ({ split }) =>
      deliverParquet(downloads, await service.downloadBenchmark(key, split), `${prefix}_${split}_benchmark_models.parquet`, `/api/v1/futures/data/${encodeURIComponent(split)}_benchmark_models`),
  });
  addTool(server, log, {
    name: "download_dataset",
    description:
      "Downloads a dataset split (index id; exped, features, targets) as a parquet file <prefix>_<split>.parquet: over stdio " +
      "written to this server's private download directory (answers path), over HTTP served at download_url (GET it with your " +
      "X-API-Key); with rows, index (id) and data columns.",
    input: { universe: z.literal("futures").default("futures").describe("Always futures on this service"), split },
    readOnly: true,
    run: async ({ split }) => deliverParquet(downloads, await service.downloadDataset(key, split), `${prefix}_${split}.parquet`, `/api/v1/futures/data/${encodeURIComponent(split)}`),
  });
  addTool(server, log, {
    name: "get_benchmarks",
    description: "The benchmark catalogue: mean CORR, mean AIMC and Sharpe per published benchmark model over the scored rounds, with rank_metric.",
    input: {},
    readOnly: true,
    run: () => service.benchmarks(key),
  });
}

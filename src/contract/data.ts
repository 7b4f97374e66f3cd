import { z } from "zod";
import { operation } from "./operation.js";

/** The benchmark file's split suffix: `train_benchmark_models`. */
export const BENCHMARK_SUFFIX = "_benchmark_models";

const PARQUET = "application/vnd.apache.parquet";

const downloadErrors = {
  400: "Invalid split: {split}",
  404: "Dataset not found: futures/{split} (live between rounds)",
};

const split = z.string().describe("train, validation or live (live only while a round is open)");
const input = { universe: z.literal("futures").default("futures").describe("Always futures on this service"), split };

/**
 * Parquet downloads. Both share `/api/v1/futures/data/`: the benchmark endpoint (a split with the
 * `_benchmark_models` suffix) comes first, so it wins over the dataset's.
 */
export const dataOperations = {
  downloadBenchmark: operation({
    scope: "key",
    rate: "download_benchmark",
    rest: [
      {
        method: "GET",
        path: `/api/v1/futures/data/{split}${BENCHMARK_SUFFIX}`,
        hono: `/api/v1/futures/data/:split{.+${BENCHMARK_SUFFIX}}`,
        operationId: "download_benchmark",
        summary: "Benchmark predictions of a split (index id, exped, v1_designated); event keys get only train",
        produces: PARQUET,
        responses: { 200: "<prefix>_<split>_benchmark_models.parquet", ...downloadErrors, 404: `${downloadErrors[404]}; validation/live for event keys` },
      },
    ],
    mcp: [
      {
        name: "download_benchmark",
        description:
          "Downloads a split's benchmark predictions (index id; columns exped and v1_designated, the designated benchmark) " +
          "as a parquet file <prefix>_<split>_benchmark_models.parquet: over stdio written to this server's private download directory " +
          "(answers path), over HTTP served at download_url (GET it with your X-API-Key); with rows, index (id) and data columns. " +
          "Event keys get only the train file while an event runs.",
        input,
        readOnly: true,
        args: (a) => [a.split],
      },
    ],
  }),
  downloadDataset: operation({
    scope: "key",
    rate: "download_dataset",
    rest: [
      {
        method: "GET",
        path: "/api/v1/futures/data/{split}",
        operationId: "download_dataset",
        summary: "A dataset split (train, validation, live while a round is open) as parquet",
        produces: PARQUET,
        responses: { 200: "<prefix>_<split>.parquet", ...downloadErrors },
      },
    ],
    mcp: [
      {
        name: "download_dataset",
        description:
          "Downloads a dataset split (index id; exped, features, targets) as a parquet file <prefix>_<split>.parquet: over stdio " +
          "written to this server's private download directory (answers path), over HTTP served at download_url (GET it with your " +
          "X-API-Key); with rows, index (id) and data columns.",
        input,
        readOnly: true,
        args: (a) => [a.split],
      },
    ],
  }),
};

import { writeFrameParquet } from "../../data/parquet.js";
import type { Frame } from "../../domain/frame.js";
import { route } from "../route.js";

const PARQUET = "application/vnd.apache.parquet";
const BENCHMARK_SUFFIX = "_benchmark_models";

function parquet(frame: Frame, filename: string): Response {
  // parquet-wasm hands back a plain ArrayBuffer-backed array.
  return new Response(writeFrameParquet(frame) as Uint8Array<ArrayBuffer>, {
    headers: { "content-type": PARQUET, "content-disposition": `attachment; filename="${filename}"` },
  });
}

const downloadErrors = {
  400: "Invalid split: {split}",
  404: "Dataset not found: futures/{split} (live between rounds)",
};

/**
 * Parquet downloads. Both share `/api/v1/futures/data/`: the benchmark route (a split with the
 * `_benchmark_models` suffix) is registered first, so it wins over the dataset route.
 */
export const dataRoutes = [
  route({
    method: "GET",
    path: `/api/v1/futures/data/{split}${BENCHMARK_SUFFIX}`,
    hono: `/api/v1/futures/data/:file{.+${BENCHMARK_SUFFIX}}`,
    operationId: "download_benchmark",
    summary: "Benchmark predictions of a split (index id, exped, v1_designated); event keys get only train",
    key: "required",
    produces: PARQUET,
    responses: { 200: "<prefix>_<split>_benchmark_models.parquet", ...downloadErrors, 404: `${downloadErrors[404]}; validation/live for event keys` },
    handle: async ({ c, service, key }) => {
      const split = (c.req.param("file") as string).slice(0, -BENCHMARK_SUFFIX.length);
      const frame = await service.downloadBenchmark(key, split);
      return parquet(frame, `${service.ctx.world.dataset.spec.prefix}_${split}${BENCHMARK_SUFFIX}.parquet`);
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/futures/data/{split}",
    operationId: "download_dataset",
    summary: "A dataset split (train, validation, live while a round is open) as parquet",
    key: "required",
    produces: PARQUET,
    responses: { 200: "<prefix>_<split>.parquet", ...downloadErrors },
    handle: async ({ c, service, key }) => {
      const split = c.req.param("split") as string;
      const frame = await service.downloadDataset(key, split);
      return parquet(frame, `${service.ctx.world.dataset.spec.prefix}_${split}.parquet`);
    },
  }),
];

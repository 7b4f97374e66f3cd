import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { readFrameParquet } from "../../src/data/parquet.js";
import { DownloadDir } from "../../src/mcp/downloads.js";
import { createMcpServer } from "../../src/mcp/server.js";
import { ANN, PKL, csv, eventServer, spread } from "../http/event-server.js";
import type { TestServer } from "../http/server.js";
import { callTool, fetchDownload, mcpClient, type ToolAnswer } from "./client.js";

/** File arguments from a hostile caller: over /mcp (HTTP) and over an in-process stdio-style server. */
const dir = mkdtempSync(join(tmpdir(), "basecamp-file-args-"));
const FIFO = join(dir, "fifo.pkl");
const SECRET = "secret-value-0600-do-not-echo";
const SECRET_FILE = join(dir, "secret.pkl");
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

let s: TestServer;
let validation: string[];
beforeAll(async () => {
  execFileSync("mkfifo", [FIFO]);
  writeFileSync(SECRET_FILE, SECRET, { mode: 0o600 });
  s = await eventServer();
  const ann = await mcpClient(s.url, { "X-API-Key": ANN });
  validation = readFrameParquet(await fetchDownload((await callTool(ann, "download_dataset", { split: "validation" })).json.download_url, ANN)).ids;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A refusal that names neither the path nor anything in the file. */
function expectQuiet(answer: ToolAnswer, ...secrets: string[]): void {
  expect(answer.isError).toBe(true);
  for (const secret of secrets) expect(answer.text).not.toContain(secret);
}

/** An MCP client on a server in this process with the stdio face's rules (paths allowed after the key). */
async function stdioClient(key: string): Promise<{ client: Client; downloads: DownloadDir }> {
  const downloads = new DownloadDir();
  const server = createMcpServer(s.service, key, { transport: "stdio", downloads, log: () => {} });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "stdio-style", version: "0" });
  await client.connect(b);
  return { client, downloads };
}

const practice = (model_id: string, extra: Record<string, unknown>) => ({ model_id, predictions: Object.fromEntries(validation.map((id) => [id, 0.5])), ...extra });

describe("over /mcp (HTTP)", () => {
  it("answers an invalid key with 401 at once, before a /dev/zero or FIFO path is looked at", async () => {
    const bad = await mcpClient(s.url, { "X-API-Key": "key-nobody-000000" });
    for (const path of ["/dev/zero", "/dev/stdin", FIFO]) {
      // A FIFO without a writer blocks whoever opens it: a path looked at before the key would hang the call (the test's timeout).
      const a = await callTool(bad, "submit_validation_diagnostics", { model_id: "x", predictions_path: path, model_pkl_path: path });
      expect(a.json.detail).toEqual({ code: "invalid_api_key", message: "Invalid API key" });
    }
    const none = await mcpClient(s.url, {});
    expect((await callTool(none, "upload_model", { model_id: "x", path: "/dev/zero" })).json.detail.code).toBe("missing_api_key");
  });

  it("refuses a server path with a valid key, naming the argument and never the path or the file", async () => {
    const ann = await mcpClient(s.url, { "X-API-Key": ANN });
    const m = (await callTool(ann, "create_model", { name: "paths" })).json.name;
    const a = await callTool(ann, "submit_validation_diagnostics", practice(m, { model_pkl_path: SECRET_FILE }));
    expectQuiet(a, SECRET_FILE, SECRET);
    expect(a.json.detail).toEqual({
      code: "mcp_path_refused",
      message: "model_pkl_path: file paths are not accepted over HTTP; send the file's contents in model_pkl_base64 (base64).",
      loc: ["arguments", "model_pkl_path"],
    });
    const batch = await callTool(ann, "submit_diagnostics_batch", { items: [{ model_id: m, predictions_path: "/etc/passwd", model_pkl_base64: base64(PKL) }] });
    expect(batch.json.detail).toMatchObject({ code: "mcp_path_refused", loc: ["arguments", "items", 0, "predictions_path"] });
  });

  it("takes base64 contents end to end, one source per file", async () => {
    const ann = await mcpClient(s.url, { "X-API-Key": ANN });
    const m = (await callTool(ann, "create_model", { name: "contents" })).json.name;
    const predictions = csv(validation, spread(validation, 11));
    const run = await callTool(ann, "submit_validation_diagnostics", {
      model_id: m, predictions_base64: base64(predictions), predictions_filename: "p.csv", model_pkl_base64: base64(PKL), model_pkl_filename: "predict.pkl",
    });
    expect(run.json).toMatchObject({ lane: "practice", status: "accepted", n_rows: validation.length });
    const both = await callTool(ann, "submit_validation_diagnostics", practice(m, { model_pkl_base64: base64(PKL), model_pkl_path: "/x.pkl" }));
    expect(both.json.detail).toMatchObject({ code: "validation_error", loc: ["arguments", "model_pkl_base64"] });
  });
});

describe("over stdio (in process): paths after the key, regular files only, size-capped, never echoed", () => {
  it("downloads into a private directory (0700, files 0600), the REST file's bytes, and lists only the data columns", async () => {
    const { client, downloads } = await stdioClient(ANN);
    const a = await callTool(client, "download_benchmark", { split: "train" });
    expect(a.isError).toBe(false);
    expect(a.json).toMatchObject({ index: "id", columns: ["exped", "v1_designated"] });
    expect(a.json).not.toHaveProperty("download_url");
    expect(statSync(dirname(a.json.path)).mode & 0o777).toBe(0o700);
    expect(statSync(a.json.path).mode & 0o777).toBe(0o600);
    expect(dirname(a.json.path)).not.toBe(join(tmpdir(), "basecamp-mcp"));
    expect(new Uint8Array(readFileSync(a.json.path))).toEqual((await s.get("/api/v1/futures/data/train_benchmark_models", ANN)).bytes);
    await client.close();
    downloads.close();
  });

  it("answers an invalid key with 401 before reading a FIFO", async () => {
    const { client } = await stdioClient("key-nobody-000000");
    const a = await callTool(client, "submit_validation_diagnostics", { model_id: "x", model_pkl_path: FIFO });
    expect(a.json.detail.code).toBe("invalid_api_key");
    await client.close();
  });

  it("refuses a FIFO, a device, /dev/stdin and a directory without reading them, naming only the argument", async () => {
    const { client } = await stdioClient(ANN);
    const m = (await callTool(client, "create_model", { name: "stdio-paths" })).json.name;
    for (const path of [FIFO, "/dev/zero", "/dev/stdin", dir]) {
      const a = await callTool(client, "submit_validation_diagnostics", practice(m, { model_pkl_path: path }));
      expectQuiet(a, path);
      expect(a.json.detail).toEqual({ code: "validation_error", message: "model_pkl_path: not a regular file", loc: ["arguments", "model_pkl_path"] });
    }
    const missing = await callTool(client, "submit_validation_diagnostics", practice(m, { model_pkl_path: join(dir, "nowhere.pkl") }));
    expectQuiet(missing, dir);
    expect(missing.json.detail).toMatchObject({ message: "model_pkl_path: cannot read the file (ENOENT)" });
    await client.close();
  });

  it("refuses a file over the lane's limit from its size, and never echoes a file's content", async () => {
    const { client } = await stdioClient(ANN);
    const m = (await callTool(client, "create_model", { name: "stdio-big" })).json.name;
    const limit = s.service.ctx.world.deployment.event?.model_file.max_bytes as number;
    const big = join(dir, "big.pkl");
    writeFileSync(big, Buffer.concat([Buffer.from(SECRET), Buffer.alloc(limit)]), { mode: 0o600 });
    const a = await callTool(client, "submit_validation_diagnostics", practice(m, { model_pkl_path: big }));
    expectQuiet(a, big, SECRET);
    expect(a.json.detail).toEqual({ code: "model_file_too_large", message: `Model file too large: the limit is ${limit} bytes.`, loc: ["arguments", "model_pkl_path"] });
    const secret = await callTool(client, "submit_validation_diagnostics", practice(m, { model_pkl_path: SECRET_FILE }));
    expectQuiet(secret, SECRET_FILE, SECRET);
    expect(secret.json.detail.code).toBe("model_pickle_invalid");
    await client.close();
  });

  it("bounds base64 contents by their length before decoding them (no HTTP body limit in front)", async () => {
    const { client } = await stdioClient(ANN);
    const m = (await callTool(client, "create_model", { name: "stdio-base64" })).json.name;
    const limit = s.service.ctx.world.deployment.event?.model_file.max_bytes as number;
    const huge = "A".repeat(4 * Math.ceil(limit / 3) + 4);
    const big = await callTool(client, "submit_validation_diagnostics", practice(m, { model_pkl_base64: huge }));
    expect(big.json.detail).toEqual({ code: "model_file_too_large", message: `Model file too large: the limit is ${limit} bytes.`, loc: ["arguments", "model_pkl_base64"] });
    await client.close();
  });

  it("takes a regular file by path, and removes its private download directory on close", async () => {
    const { client, downloads } = await stdioClient(ANN);
    const m = (await callTool(client, "create_model", { name: "stdio-ok" })).json.name;
    const pkl = join(dir, "predict.pkl");
    writeFileSync(pkl, PKL);
    const run = await callTool(client, "submit_validation_diagnostics", practice(m, { model_pkl_path: pkl, model_pkl_python_version: "3.12" }));
    expect(run.json).toMatchObject({ lane: "practice", status: "accepted" });
    const data = await callTool(client, "download_dataset", { split: "validation" });
    const own = dirname(data.json.path);
    expect(statSync(own).mode & 0o777).toBe(0o700);
    await client.close();
    downloads.close();
    expect(existsSync(own)).toBe(false);
  });
});

import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { fileArgument } from "./file-argument.js";
import { addTool, type ToolContext } from "./tool.js";

const modelId = z.string().min(1).describe("The model's id (mdl_…) or its name");

/** The tournament's auto-submit lane: upload_model, get_upload_status, set_auto_submit. */
export function registerModelFileTools(server: McpServer, { service, key, transport, log }: ToolContext): void {
  addTool(server, log, {
    name: "upload_model",
    description:
      "Uploads a model file (.pkl: its bytes as content_base64, or over stdio a local path) for the tournament's auto-submit lane: a cloudpickled callable " +
      "predict(live_features) or predict(live_features, live_benchmark_models) returning a one-column DataFrame indexed by id. " +
      "Checked at once (name, size, python version, shape), answered with status pending; a sandbox predict then makes it " +
      "validated or error (poll get_upload_status). With auto-submit on, the service runs it and submits shortly after each " +
      "round opens; a manual submission always wins. A later upload replaces the file.",
    input: {
      model_id: modelId,
      content_base64: z.string().optional().describe("The .pkl file's bytes, base64"),
      filename: z.string().optional().describe("The file's name (omitted: model.pkl)"),
      path: z.string().min(1).optional().describe("stdio only: a local path instead of content_base64 (refused over HTTP)"),
      python_version: z.string().optional().describe("'major.minor' of the interpreter that saved the pickle (omitted: 3.11)"),
      sha256: z.string().optional().describe("Lowercase 64-hex SHA-256 you declare for the file; checked when given"),
    },
    run: async ({ model_id, content_base64, filename, path, python_version, sha256 }) => {
      // The key is checked before the file argument is read; the lane's limit bounds what is read.
      const limits = await service.fileLimits(key);
      const file = fileArgument(
        transport,
        { path: "path", base64: "content_base64", loc: [], maxBytes: limits.auto_submit_model_file, tooLarge: "model_file_too_large" },
        { path, base64: content_base64, filename: filename ?? "model.pkl" },
      );
      return service.uploadModel(key, { model_id, file, python_version: python_version ?? null, sha256: sha256 ?? null });
    },
  });
  addTool(server, log, {
    name: "get_upload_status",
    description:
      "The model's current model file: pending → validating → validated | error (with the reason), plus auto_submit, " +
      "lane_active, lane_note and the lane's last run for the model.",
    input: { model_id: modelId },
    readOnly: true,
    run: ({ model_id }) => service.getUploadStatus(key, model_id),
  });
  addTool(server, log, {
    name: "set_auto_submit",
    description: "Switches the model's auto-submit lane on or off (tournament models start with it on); answers the model record.",
    input: { model_id: modelId, enabled: z.boolean().describe("true to let the lane run the model each round") },
    run: ({ model_id, enabled }) => service.setAutoSubmit(key, { model_id, enabled }),
  });
}

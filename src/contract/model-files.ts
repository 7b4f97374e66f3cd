import { z } from "zod";
import { operation } from "./operation.js";
import { modelFileRefusals, texts } from "./refusals.js";

const modelNotFound = texts("model_name_unknown", "model_not_found");
const modelId = z.string().min(1).describe("The model's id (mdl_…) or its name");

const uploadView =
  "ModelUploadView {upload_id, model_id, model, status: pending|validating|validated|error|replaced, filename, sha256, python_version, " +
  "n_bytes, uploaded_at, validating_at, validates_at, validated_at, error, auto_submit, lane_active, lane_note, last_auto_run}";

/** The tournament's auto-submit lane: upload a model file, read its validation, switch the lane. */
export const modelFileOperations = {
  uploadModel: operation({
    scope: "key",
    rate: "upload_model",
    rest: [
      {
        method: "POST",
        path: "/api/v1/models/{model}/upload",
        operationId: "upload_model",
        summary: "Uploads the model's .pkl for the auto-submit lane: checked at once, accepted pending (202), validated by a sandbox predict later",
        form: "ModelFileForm",
        // The file at its limit still reaches the service, which names that limit (413 Model file too large).
        bodyLimit: "auto_submit_model_file",
        status: 202,
        responses: {
          202: uploadView,
          400: texts(...modelFileRefusals),
          404: `${modelNotFound} | ${texts("not_found")} (an event deployment)`,
          413: texts("model_file_too_large", "payload_too_large"),
        },
      },
    ],
    mcp: [
      {
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
      },
    ],
  }),
  getUploadStatus: operation({
    scope: "key",
    rate: "get_upload_status",
    rest: [
      {
        method: "GET",
        path: "/api/v1/models/{model}/upload/status",
        operationId: "get_upload_status",
        summary: "The model's current model file: pending → validating → validated | error, with the lane's state and last auto-run",
        responses: { 200: uploadView, 404: `${modelNotFound} | ${texts("model_upload_not_found")}` },
      },
    ],
    mcp: [
      {
        name: "get_upload_status",
        description:
          "The model's current model file: pending → validating → validated | error (with the reason), plus auto_submit, " +
          "lane_active, lane_note and the lane's last run for the model.",
        input: { model_id: modelId },
        readOnly: true,
        args: (a) => [a.model_id],
      },
    ],
  }),
  setAutoSubmit: operation({
    scope: "key",
    rate: "set_auto_submit",
    rest: [
      {
        method: "POST",
        path: "/api/v1/models/{model}/auto-submit",
        operationId: "set_auto_submit",
        summary: "Switches the model's auto-submit lane on or off; answers the model record with lane_active and lane_note",
        body: "AutoSubmitBody",
        codec: {
          args: (params, body) => [{ model_id: params.model, enabled: body.enabled }],
          request: ([input]) => ({ params: { model: input.model_id }, body: { enabled: input.enabled } }),
        },
        responses: { 200: "The model record {id, name, auto_submit, lane_active, lane_note, ...}", 404: modelNotFound },
      },
    ],
    mcp: [
      {
        name: "set_auto_submit",
        description: "Switches the model's auto-submit lane on or off (tournament models start with it on); answers the model record.",
        input: { model_id: modelId, enabled: z.boolean().describe("true to let the lane run the model each round") },
        args: (a) => [{ model_id: a.model_id, enabled: a.enabled }],
      },
    ],
  }),
};

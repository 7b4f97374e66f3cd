import { autoSubmitSettings } from "../../service/kernel/settings/auto-submit.js";
import { route } from "../route.js";
import { modelFileRefusals, texts } from "../refusal-texts.js";
import { FORM_SLACK_BYTES } from "../upload-guards.js";

const modelNotFound = texts("model_name_unknown", "model_not_found");

const uploadView =
  "ModelUploadView {upload_id, model_id, model, status: pending|validating|validated|error|replaced, filename, sha256, python_version, " +
  "n_bytes, uploaded_at, validating_at, validates_at, validated_at, error, auto_submit, lane_active, lane_note, last_auto_run}";

/** The tournament's auto-submit lane: upload a model file, read its validation, switch the lane. */
export const modelFileRoutes = [
  route({
    method: "POST",
    path: "/api/v1/models/{model}/upload",
    operationId: "upload_model",
    summary: "Uploads the model's .pkl for the auto-submit lane: checked at once, accepted pending (202), validated by a sandbox predict later",
    key: "required",
    form: "ModelFileForm",
    // The file at its limit still reaches the service, which names that limit (413 Model file too large).
    bodyLimit: (service) => autoSubmitSettings(service.ctx).model_file.max_bytes + FORM_SLACK_BYTES,
    responses: {
      202: uploadView,
      400: texts(...modelFileRefusals),
      404: `${modelNotFound} | ${texts("not_found")} (an event deployment)`,
      413: texts("model_file_too_large", "payload_too_large"),
    },
    handle: async ({ c, service, key, body }) => {
      const file = { filename: body.file.name, bytes: new Uint8Array(await body.file.arrayBuffer()) };
      const view = await service.uploadModel(key, {
        model_id: c.req.param("model") as string,
        file,
        python_version: body.python_version ?? null,
        sha256: body.sha256 ?? null,
      });
      return c.json(view, 202);
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/models/{model}/upload/status",
    operationId: "get_upload_status",
    summary: "The model's current model file: pending → validating → validated | error, with the lane's state and last auto-run",
    key: "required",
    responses: { 200: uploadView, 404: `${modelNotFound} | ${texts("model_upload_not_found")}` },
    handle: async ({ c, service, key }) => c.json(await service.getUploadStatus(key, c.req.param("model") as string)),
  }),
  route({
    method: "POST",
    path: "/api/v1/models/{model}/auto-submit",
    operationId: "set_auto_submit",
    summary: "Switches the model's auto-submit lane on or off; answers the model record with lane_active and lane_note",
    key: "required",
    body: "AutoSubmitBody",
    responses: { 200: "The model record {id, name, auto_submit, lane_active, lane_note, ...}", 404: modelNotFound },
    handle: async ({ c, service, key, body }) =>
      c.json(await service.setAutoSubmit(key, { model_id: c.req.param("model") as string, enabled: body.enabled })),
  }),
];

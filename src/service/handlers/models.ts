import { setAutoSubmit } from "../auto-submit/switch.js";
import { getUploadStatus, uploadModel, type ModelFileInput } from "../auto-submit/upload-model.js";
import { archiveModel, createModel, getModels } from "../models/models.js";
import { offPath, type Call } from "./call.js";

/** Models and the tournament's auto-submit lane. */
export const modelHandlers = {
  createModel: (c: Call, input: { name: string }) => createModel(c.ctx, c.principal, input),
  getModels: (c: Call) => getModels(c.ctx, c.principal),
  archiveModel: (c: Call, ref: string) => archiveModel(c.ctx, c.principal, ref),
  /** A model file for one of the caller's models, accepted `pending` (202). */
  uploadModel: offPath((c: Call, input: ModelFileInput) => uploadModel(c.ctx, c.uploadPath, c.principal, input)),
  /** The model's current model file: pending → validating → validated | error, and its lane. */
  getUploadStatus: (c: Call, model: string) => getUploadStatus(c.ctx, c.principal, model),
  setAutoSubmit: (c: Call, input: { model_id: string; enabled: boolean }) => setAutoSubmit(c.ctx, c.principal, input),
};

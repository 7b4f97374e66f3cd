import { catalogue, type ErrorCode } from "../domain/errors.js";

/** The catalogue's texts of `codes`, for a response's description in the OpenAPI document. */
export const texts = (...codes: ErrorCode[]) => codes.map((c) => catalogue[c].text).join(" | ");

/** The model-file refusals both event lanes and the tournament's model upload give (a 400 each). */
export const modelFileRefusals: ErrorCode[] = [
  "model_pkl_not_pkl",
  "model_pkl_sha256_invalid",
  "model_pkl_sha256_mismatch",
  "python_version_invalid",
  "python_version_unsupported",
  "model_shape_refused",
  "model_pickle_invalid",
  "model_pickle_torch",
];

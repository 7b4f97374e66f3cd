import type { ModelFileInput } from "../service/auto-submit/upload-model.js";

/** `upload_model`'s multipart form: the `file` part (left out when null: the service answers 422) and the optional text fields that are set. */
export function modelFileForm(input: ModelFileInput): FormData {
  const form = new FormData();
  // A Blob copies the bytes; the cast only widens ArrayBufferLike for the DOM typings.
  if (input.file) form.set("file", new Blob([input.file.bytes as Uint8Array<ArrayBuffer>]), input.file.filename);
  if (typeof input.python_version === "string") form.set("python_version", input.python_version);
  if (typeof input.sha256 === "string") form.set("sha256", input.sha256);
  return form;
}

import type { FilePart } from "../data/file-part.js";
import type { UploadInput } from "../service/event/uploads.js";

function blob(part: FilePart): Blob {
  // A Blob copies the bytes; the cast only widens ArrayBufferLike for the DOM typings.
  return new Blob([part.bytes as Uint8Array<ArrayBuffer>]);
}

/** The optional text fields of an upload, those that are set. */
function textFields(input: UploadInput): [string, string][] {
  const fields: [string, string | null | undefined][] = [
    ["model_pkl_sha256", input.model_pkl_sha256],
    ["model_pkl_python_version", input.model_pkl_python_version],
    ["idempotency_key", input.idempotency_key],
  ];
  return fields.filter((f): f is [string, string] => typeof f[1] === "string");
}

/** One upload as the lanes' multipart form; a null file is left out, for the service to refuse. */
export function uploadForm(input: UploadInput): FormData {
  const form = new FormData();
  form.set("model_id", input.model_id);
  if (input.predictions) form.set("predictions", blob(input.predictions), input.predictions.filename);
  if (input.model_pkl) form.set("model_pkl", blob(input.model_pkl), input.model_pkl.filename);
  for (const [name, value] of textFields(input)) form.set(name, value);
  return form;
}

/**
 * A batch as its multipart form: a `manifest` field declaring the items and one part per distinct
 * file (the same bytes object used by several items is sent once and named by each).
 */
export function batchForm(items: UploadInput[]): FormData {
  const form = new FormData();
  const names = new Map<Uint8Array, string>();
  const partName = (part: FilePart | null): string | undefined => {
    if (!part) return undefined;
    let name = names.get(part.bytes);
    if (name === undefined) {
      name = `file_${names.size}`;
      names.set(part.bytes, name);
      form.set(name, blob(part), part.filename);
    }
    return name;
  };
  const manifest = items.map((item) => ({
    model_id: item.model_id,
    predictions: partName(item.predictions),
    model_pkl: partName(item.model_pkl),
    ...Object.fromEntries(textFields(item)),
  }));
  form.set("manifest", JSON.stringify({ items: manifest }));
  return form;
}

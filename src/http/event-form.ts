import type { z } from "zod";
import { refuse } from "../domain/errors.js";
import type { BatchItem } from "../service/event/batch.js";
import type { FilePart } from "../data/file-part.js";
import type { UploadInput } from "../service/event/uploads.js";
import { fileBytes } from "./form-file.js";
import { parseJsonText } from "./json-body.js";
import { batchManifest, type batchForm, type uploadForm } from "../contract/schemas.js";

/** A part's bytes, read afresh for each upload that names it: the upload may hand them to a checking thread. */
async function filePart(file: File): Promise<FilePart> {
  return { filename: file.name, bytes: await fileBytes(file), movable: true };
}

/** The text fields of an upload as the service takes them: absent is null. */
function fields(f: { model_pkl_sha256?: string; model_pkl_python_version?: string; idempotency_key?: string }) {
  return {
    model_pkl_sha256: f.model_pkl_sha256 ?? null,
    model_pkl_python_version: f.model_pkl_python_version ?? null,
    idempotency_key: f.idempotency_key ?? null,
  };
}

/** One upload's form as the service's input; a missing file part is null, for the service to refuse. */
export async function uploadInput(form: z.output<typeof uploadForm>): Promise<UploadInput> {
  return {
    model_id: form.model_id,
    predictions: form.predictions ? await filePart(form.predictions) : null,
    model_pkl: form.model_pkl ? await filePart(form.model_pkl) : null,
    ...fields(form),
  };
}

/**
 * A batch form as the service's items: the `manifest` field (JSON, checked by its schema: 422
 * with `loc` under `manifest`) declares the items, each naming its file parts; a part may serve
 * several items. An item naming no part gets null (the service refuses it with the spec's text);
 * naming a part that was not sent is a 422, before any item is taken. Each item's files are read
 * only when the service comes to it, so a batch of large files is in memory one item at a time.
 */
export function batchInputs(form: z.output<typeof batchForm>): BatchItem[] {
  const manifest = parseJsonText(form.manifest, batchManifest, ["manifest"]);
  const named = (name: string | undefined, loc: (string | number)[]): File | null => {
    if (name === undefined) return null;
    const file = name === "manifest" ? undefined : form[name];
    if (!(file instanceof File)) {
      throw refuse(
        "validation_error",
        { message: `manifest.items[${loc[0]}].${loc[1]}: no file part named '${name}' was sent` },
        { extra: { loc: ["body", "manifest", "items", ...loc] } },
      );
    }
    return file;
  };
  return manifest.items.map((item, i) => {
    const predictions = named(item.predictions, [i, "predictions"]);
    const model_pkl = named(item.model_pkl, [i, "model_pkl"]);
    return async () => ({
      model_id: item.model_id,
      predictions: predictions && (await filePart(predictions)),
      model_pkl: model_pkl && (await filePart(model_pkl)),
      ...fields(item),
    });
  });
}

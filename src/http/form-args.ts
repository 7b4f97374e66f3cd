import type { z } from "zod";
import type { FormName, formSchemas } from "../contract/schemas.js";
import { batchInputs, uploadInput } from "./event-form.js";
import { fileBytes } from "./form-file.js";

type FormArgs<F extends FormName> = (form: z.output<(typeof formSchemas)[F]>, params: Record<string, string>) => Promise<unknown[]>;

/** How each multipart form becomes its operation's arguments (after the route's fixed ones, such as a batch's lane). */
export const formArgs: { [F in FormName]: FormArgs<F> } = {
  UploadForm: async (form) => [await uploadInput(form)],
  BatchForm: async (form) => [batchInputs(form)],
  ModelFileForm: async (form, params) => [
    {
      model_id: params.model,
      file: { filename: form.file.name, bytes: await fileBytes(form.file) },
      python_version: form.python_version ?? null,
      sha256: form.sha256 ?? null,
    },
  ],
};

import type { z } from "zod";
import { refuse } from "../domain/errors.js";
import { checkBody } from "./json-body.js";

const FORM_TYPES = /^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i;

/**
 * The request's form body (multipart) as an object of text fields and `File` parts, checked
 * against `schema`: 422 with `loc` for a body that is not form data or fails the schema. A field
 * sent twice keeps its last value.
 */
export async function parseFormBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  if (!FORM_TYPES.test(request.headers.get("content-type") ?? "")) {
    throw refuse("validation_error", { message: "body: expected multipart/form-data" }, { extra: { loc: ["body"] } });
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch (e) {
    throw refuse("validation_error", { message: `body: not readable form data (${(e as Error).message})` }, { extra: { loc: ["body"] } });
  }
  const fields: Record<string, FormDataEntryValue> = {};
  for (const [name, value] of form) fields[name] = value;
  return checkBody(schema, fields);
}

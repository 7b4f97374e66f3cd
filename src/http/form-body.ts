import type { z } from "zod";
import { refuse } from "../domain/errors.js";
import { checkBody } from "./json-body.js";
import type { FileSpool } from "./file-spool.js";
import { readMultipart } from "./multipart.js";

const FORM_TYPES = /^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i;

/**
 * The request's form body (multipart) as an object of text fields and `File` parts, checked
 * against `schema`: 422 with `loc` for a body that is not form data or fails the schema. A field
 * sent twice keeps its last value. Large file parts wait in `spool` (the caller disposes of it).
 */
export async function parseFormBody<S extends z.ZodType>(request: Request, schema: S, spool?: FileSpool): Promise<z.output<S>> {
  if (!FORM_TYPES.test(request.headers.get("content-type") ?? "")) {
    throw refuse("validation_error", { message: "body: expected multipart/form-data" }, { extra: { loc: ["body"] } });
  }
  let fields: Record<string, FormDataEntryValue>;
  try {
    fields = Object.fromEntries(await readForm(request, spool));
  } catch (e) {
    throw refuse("validation_error", { message: `body: not readable form data (${(e as Error).message})` }, { extra: { loc: ["body"] } });
  }
  return checkBody(schema, fields);
}

/** Multipart bodies are read as they stream (src/http/multipart.ts); a urlencoded one is small. */
async function readForm(request: Request, spool?: FileSpool): Promise<Iterable<[string, FormDataEntryValue]>> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(type)) return request.formData();
  if (!request.body) throw new Error("the body is empty");
  return readMultipart(request.body, type, spool);
}

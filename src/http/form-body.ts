import type { z } from "zod";
import { refuse } from "../domain/errors.js";
import { checkBody } from "./json-body.js";
import type { FileSpool } from "./file-spool.js";
import { readMultipart } from "./multipart.js";
import type { BodySource } from "./request-body.js";

const FORM_TYPES = /^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i;

/**
 * The request's form body (multipart) as an object of text fields and `File` parts, checked
 * against `schema`: 422 with `loc` for a body that is not form data or fails the schema. A field
 * sent twice keeps its last value. Large file parts wait in `spool` (the caller disposes of it).
 */
export async function parseFormBody<S extends z.ZodType>(type: string, body: BodySource | null, schema: S, spool?: FileSpool): Promise<z.output<S>> {
  if (!FORM_TYPES.test(type)) {
    throw refuse("validation_error", { message: "body: expected multipart/form-data" }, { extra: { loc: ["body"] } });
  }
  let fields: Record<string, FormDataEntryValue>;
  try {
    fields = Object.fromEntries(await readForm(type, body, spool));
  } catch (e) {
    throw refuse("validation_error", { message: `body: not readable form data (${(e as Error).message})` }, { extra: { loc: ["body"] } });
  }
  return checkBody(schema, fields);
}

/** Multipart bodies are read as they stream (src/http/multipart.ts); a urlencoded one is small, and read whole. */
async function readForm(type: string, body: BodySource | null, spool?: FileSpool): Promise<Iterable<[string, FormDataEntryValue]>> {
  if (!/^multipart\/form-data\b/i.test(type)) {
    const chunks: Uint8Array[] = [];
    if (body) for await (const chunk of body) chunks.push(chunk);
    return new Response(Buffer.concat(chunks), { headers: { "content-type": type } }).formData();
  }
  if (!body) throw new Error("the body is empty");
  return readMultipart(body, type, spool);
}

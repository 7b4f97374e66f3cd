import type { z } from "zod";
import { refuse } from "../domain/errors.js";

/** `["body", "predictions", 3, "prediction"]` as `predictions[3].prediction`. */
function fieldName(path: PropertyKey[]): string {
  return path.reduce<string>((s, p) => (typeof p === "number" ? `${s}[${p}]` : s ? `${s}.${String(p)}` : String(p)), "");
}

/**
 * `raw` checked against `schema`; anything else is a 422 naming the first error and its location
 * under `at` (`detail.loc`, e.g. `["body", "predictions", 3, "prediction"]`).
 */
export function checkBody<S extends z.ZodType>(schema: S, raw: unknown, at: PropertyKey[] = []): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = [...at, ...issue.path];
  const name = fieldName(path);
  throw refuse(
    "validation_error",
    { message: name ? `${name}: ${issue.message}` : `body: ${issue.message}` },
    { extra: { loc: ["body", ...path] } },
  );
}

/** The request's JSON body checked against `schema` (422 with `loc` otherwise). */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  return parseJsonText(await request.text(), schema);
}

/** JSON text checked against `schema`; `at` locates the text inside the body (a form field). */
export function parseJsonText<S extends z.ZodType>(text: string, schema: S, at: PropertyKey[] = []): z.output<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    const where = at.length ? at.join(".") : "body";
    throw refuse("validation_error", { message: `${where}: not valid JSON (${(e as Error).message})` }, { extra: { loc: ["body", ...at] } });
  }
  return checkBody(schema, raw, at);
}

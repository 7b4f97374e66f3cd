import type { z } from "zod";
import { refuse } from "../domain/errors.js";

/** `["body", "predictions", 3, "prediction"]` as `predictions[3].prediction`. */
function fieldName(path: PropertyKey[]): string {
  return path.reduce<string>((s, p) => (typeof p === "number" ? `${s}[${p}]` : s ? `${s}.${String(p)}` : String(p)), "");
}

/**
 * The request's JSON body checked against `schema`; anything else is a 422 naming the first
 * error and its location (`detail.loc`, e.g. `["body", "predictions", 3, "prediction"]`).
 */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const text = await request.text();
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw refuse("validation_error", { message: `body: not valid JSON (${(e as Error).message})` }, { extra: { loc: ["body"] } });
  }
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const name = fieldName(issue.path);
  throw refuse(
    "validation_error",
    { message: name ? `${name}: ${issue.message}` : `body: ${issue.message}` },
    { extra: { loc: ["body", ...issue.path] } },
  );
}

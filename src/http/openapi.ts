import { z } from "zod";
import { API_PREFIX } from "../contract/index.js";
import type { Route } from "./route.js";
import { componentSchemas } from "../contract/schemas.js";

const errorBody = {
  type: "object",
  required: ["detail"],
  properties: {
    detail: {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: { type: "string" },
        message: { type: "string", description: "The catalogue's exact text" },
        loc: { type: "array", items: { type: ["string", "integer"] }, description: "422: the first error's field location" },
      },
      additionalProperties: true,
    },
  },
};

const security = {
  required: [{ ApiKey: [] }],
  optional: [{}, { ApiKey: [] }],
  none: [],
  organiser: [{ OrganiserKey: [] }],
} as const;

/** General errors by the kind of route (spec, Errors: General). */
function generalResponses(r: Route): Record<number, string> {
  const out: Record<number, string> = {};
  if (r.path.startsWith(API_PREFIX)) {
    out[302] = "Access gate (when configured): missing or wrong CF-Access-Client-Id / CF-Access-Client-Secret";
    out[401] = "Authorization header or a key in the query string";
  }
  if (r.key === "required") {
    out[401] = "Missing API key | Invalid API key | Authorization header | key in query string";
    out[403] = "Insufficient scope | LLM-scoped key | Account blocked";
    out[429] = "Rate limit exceeded (names the ceiling; no Retry-After)";
  }
  if (r.key === "organiser") {
    out[401] = "Missing API key";
    out[403] = "This needs the scenario's organiser key.";
  }
  if (r.body || r.form) {
    out[413] = "Payload too large: the limit is {limit} bytes.";
    out[422] = `${r.form ? "Form" : "JSON"} body failed schema validation: the first error with detail.loc`;
  }
  if (r.upload) {
    out[408] = "Upload body too slow: fewer than {min_bytes} bytes arrived in {seconds} s; the upload was dropped. (Connection: close)";
    out[503] = "Upload lane saturated; retry after 5 seconds. (Retry-After: 5): the lane, or the agent's share of it, is full";
  }
  return out;
}

function response(status: number, description: string, r: Route) {
  if (status >= 300 && status < 400) return { description, headers: { Location: { schema: { type: "string" } } } };
  if (status >= 400) return { description, content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorBody" } } } };
  const media = r.produces ?? "application/json";
  const schema = media === "application/json" ? { type: "object" } : { type: "string", contentMediaType: media };
  return { description, content: { [media]: { schema } } };
}

function requestBody(media: string, schema: string) {
  return { requestBody: { required: true, content: { [media]: { schema: { $ref: `#/components/schemas/${schema}` } } } } };
}

function operation(r: Route) {
  const pathParams = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  const responses = Object.fromEntries(
    Object.entries({ ...generalResponses(r), ...r.responses }).map(([status, d]) => [status, response(Number(status), d, r)]),
  );
  return {
    operationId: r.operationId,
    summary: r.summary,
    ...(pathParams.length ? { parameters: pathParams } : {}),
    security: security[r.key],
    ...(r.body ? requestBody("application/json", r.body) : {}),
    ...(r.form ? requestBody("multipart/form-data", r.form) : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of the served routes; request bodies (JSON and multipart) come from the zod schemas that validate them. */
export function openApiDocument(routes: Route[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) (paths[r.path] ??= {})[r.method.toLowerCase()] = operation(r);
  const schemas: Record<string, unknown> = { ErrorBody: errorBody };
  for (const [name, schema] of Object.entries(componentSchemas)) {
    const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: "input", target: "draft-2020-12" });
    schemas[name] = json;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Basecamp",
      version,
      description:
        "A local simulator of the prediction tournament service: /api/v1 as the service serves it, /sim/v1 for the scenario's organiser. See docs/http.md.",
    },
    paths,
    components: {
      schemas,
      securitySchemes: {
        ApiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
        OrganiserKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "The scenario's organiser_key" },
      },
    },
  };
}

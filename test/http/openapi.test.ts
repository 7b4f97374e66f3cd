import { Validator } from "@seriousme/openapi-schema-validator";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { componentSchemas } from "../../src/contract/schemas.js";
import { testServer } from "./server.js";

/** The contract the other faces rely on: every path with its methods. */
const contract: Record<string, string[]> = {
  "/api/v1/status": ["get"],
  "/api/v1/whoami": ["get"],
  "/api/v1/scoring": ["get"],
  "/api/v1/rounds/current": ["get"],
  "/api/v1/schedule": ["get"],
  "/api/v1/futures/rounds/current/instruments": ["get"],
  "/api/v1/futures/data/{split}": ["get"],
  "/api/v1/futures/data/{split}_benchmark_models": ["get"],
  "/api/v1/benchmarks/board": ["get"],
  "/api/v1/futures/submit/v2": ["post"],
  "/api/v1/models": ["get", "post"],
  "/api/v1/models/{model}/archive": ["post"],
  "/api/v1/models/{model}/upload": ["post"],
  "/api/v1/models/{model}/upload/status": ["get"],
  "/api/v1/models/{model}/auto-submit": ["post"],
  "/api/v1/futures/standings": ["get"],
  "/api/v1/futures/rounds/{exped}/board": ["get"],
  "/api/v1/staking/stake": ["post"],
  "/api/v1/staking/allowance": ["get"],
  "/api/v1/staking/models/{model}": ["get"],
  "/api/v1/staking/deposit-address": ["get"],
  "/api/v1/staking/forwarder-balance": ["get"],
  "/api/v1/staking/relay-stake": ["post"],
  "/api/v1/staking/relay-claim": ["post"],
  "/api/v1/staking/withdraw": ["post"],
  "/api/v1/event/predictions/upload": ["post"],
  "/api/v1/event/predictions/batch": ["post"],
  "/api/v1/event/rounds/{window}/board": ["get"],
  "/api/v1/diagnostics/upload": ["post"],
  "/api/v1/diagnostics/batch": ["post"],
  "/api/v1/diagnostics/runs/{upload_id}": ["get", "delete"],
  "/api/v1/diagnostics/board": ["get"],
  "/api/v1/event/staking": ["get"],
  "/api/v1/event/staking/allocations": ["post"],
  "/api/v1/event/staking/withdraw": ["post"],
  "/api/v1/event/final/selection": ["get", "post"],
  "/api/v1/event/final/board": ["get"],
  "/api/v1/compute/train": ["post"],
  "/api/v1/compute/jobs": ["get"],
  "/api/v1/compute/jobs/{job_id}": ["get", "delete"],
  "/api/v1/compute/jobs/{job_id}/log": ["get"],
  "/api/v1/compute/jobs/{job_id}/model": ["get"],
  "/api/v1/compute/jobs/{job_id}/model/file": ["get"],
  "/api/v1/compute/credits": ["get"],
  "/api/v1/compute/machines": ["get", "post"],
  "/api/v1/compute/machines/{machine_id}": ["get", "delete"],
  "/api/v1/compute/machines/{machine_id}/run": ["post"],
  "/api/v1/compute/machines/{machine_id}/files/{path}": ["get"],
  "/api/v1/openapi.json": ["get"],
  "/sim/v1/boards": ["get"],
  "/sim/v1/clock": ["get"],
  "/sim/v1/clock/advance": ["post"],
  "/sim/v1/clock/pause": ["post"],
  "/sim/v1/clock/resume": ["post"],
  "/sim/v1/scoring": ["post"],
  "/sim/v1/faults": ["get", "post"],
  "/sim/v1/stakes": ["get"],
};

const bodies: Record<string, string> = {
  "post /api/v1/futures/submit/v2": "SubmitV2Body",
  "post /api/v1/models": "CreateModelBody",
  "post /api/v1/staking/stake": "StakeBody",
  "post /sim/v1/clock/advance": "ClockAdvanceBody",
  "post /sim/v1/scoring": "ScoringChangeBody",
  "post /sim/v1/faults": "FaultBody",
  "post /api/v1/event/staking/allocations": "StakeAllocationBody",
  "post /api/v1/event/staking/withdraw": "StakeWithdrawBody",
  "post /api/v1/event/final/selection": "FinalSelectionBody",
  "post /api/v1/models/{model}/auto-submit": "AutoSubmitBody",
  "post /api/v1/compute/train": "TrainBody",
  "post /api/v1/compute/machines/{machine_id}/run": "MachineCommandBody",
};

/** Multipart bodies: their media type is form data. */
const forms: Record<string, string> = {
  "post /api/v1/event/predictions/upload": "UploadForm",
  "post /api/v1/diagnostics/upload": "UploadForm",
  "post /api/v1/event/predictions/batch": "BatchForm",
  "post /api/v1/diagnostics/batch": "BatchForm",
  "post /api/v1/models/{model}/upload": "ModelFileForm",
};

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, any>; securitySchemes: Record<string, any> };
};
let doc: Doc;
beforeAll(async () => {
  const s = await testServer();
  const a = await s.get("/api/v1/openapi.json");
  expect(a.status).toBe(200);
  doc = a.json;
});

describe("the OpenAPI document", () => {
  it("validates against the official OpenAPI 3.1 JSON schema", async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("is OpenAPI 3.1 and lists exactly the served paths and methods", () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(contract).sort());
    for (const [path, methods] of Object.entries(contract)) expect(Object.keys(doc.paths[path]).sort(), path).toEqual([...methods].sort());
  });

  it("gives every operation an id, responses, and a declared parameter for each path template", () => {
    const ids = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths)) {
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(ops)) {
        expect(op.operationId, `${method} ${path}`).toEqual(expect.any(String));
        expect(ids.has(op.operationId)).toBe(false);
        ids.add(op.operationId);
        expect(Object.keys(op.responses).length).toBeGreaterThan(0);
        for (const status of Object.keys(op.responses)) expect(status).toMatch(/^[1-5]\d\d$/);
        expect((op.parameters ?? []).filter((p: any) => p.in === "path").map((p: any) => p.name)).toEqual(templated);
        for (const req of op.security ?? []) for (const name of Object.keys(req)) expect(doc.components.securitySchemes).toHaveProperty(name);
      }
    }
    expect(doc.components.securitySchemes.ApiKey).toEqual({ type: "apiKey", in: "header", name: "X-API-Key" });
  });

  it("references the zod-derived body schemas, and every $ref resolves", () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const form = forms[`${method} ${path}`];
        const name = bodies[`${method} ${path}`] ?? form;
        if (!name) {
          expect(op.requestBody, `${method} ${path}`).toBeUndefined();
          continue;
        }
        const media = form ? "multipart/form-data" : "application/json";
        expect(op.requestBody.content[media].schema).toEqual({ $ref: `#/components/schemas/${name}` });
        const { $schema: _d, ...expected } = z.toJSONSchema(componentSchemas[name as keyof typeof componentSchemas], { io: "input", target: "draft-2020-12" });
        expect(doc.components.schemas[name]).toEqual(expected);
        expect(op.responses).toHaveProperty("422");
      }
    }
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      const name = ref.slice('"$ref":"#/components/schemas/'.length, -1);
      expect(doc.components.schemas, ref).toHaveProperty(name);
    }
    expect(doc.components.schemas.SubmitV2Body.properties.predictions.items.properties.prediction.anyOf).toContainEqual({
      type: "string",
      enum: ["NaN", "Infinity", "-Infinity"],
    });
  });

  it("documents the parquet downloads' media type and the general errors", () => {
    const ok = doc.paths["/api/v1/futures/data/{split}_benchmark_models"].get.responses["200"];
    expect(Object.keys(ok.content)).toEqual(["application/vnd.apache.parquet"]);
    const status = doc.paths["/api/v1/status"].get.responses;
    for (const code of ["302", "401", "403", "429"]) expect(status).toHaveProperty(code);
    expect(doc.paths["/api/v1/futures/submit/v2"].post.responses).toHaveProperty("413");
    for (const path of ["/api/v1/event/predictions/upload", "/api/v1/diagnostics/batch"]) {
      for (const code of ["408", "413", "422", "503"]) expect(doc.paths[path].post.responses, `${path} ${code}`).toHaveProperty(code);
    }
    expect(doc.components.schemas.UploadForm.properties.model_pkl).toMatchObject({ type: "string", format: "binary" });
    expect(doc.components.schemas.BatchManifest.properties.items.type).toBe("array");
  });
});

import { request, type ClientRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { refusal } from "./server.js";
import {
  ANN, BEN, PRACTICE_UPLOAD, ROUND_BATCH, ROUND_UPLOAD, csv, csvUpload, eventServer, newModel, placesTaken, postForm, splitIds, spread, toPhase, uploadForm,
} from "./event-server.js";
import { encoded } from "./raw-upload.js";

/**
 * An upload whose body is still streaming: the headers and the first half are sent, the rest
 * waits for `finish()`. `abort()` drops it.
 */
function heldUpload(url: string, path: string, key: string, body: { bytes: Uint8Array; type: string }) {
  const u = new URL(url);
  const req: ClientRequest = request({
    host: u.hostname,
    port: u.port,
    path,
    method: "POST",
    headers: { "X-API-Key": key, "content-type": body.type, "content-length": body.bytes.length },
  });
  const answer = new Promise<{ status: number; json: any }>((resolve, reject) => {
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode as number, json: JSON.parse(Buffer.concat(chunks).toString("utf8")) }));
    });
    req.on("error", reject);
  });
  answer.catch(() => undefined); // an aborted upload's answer is never awaited
  const half = Math.floor(body.bytes.length / 2);
  req.write(body.bytes.subarray(0, half));
  return {
    finish: () => {
      req.end(body.bytes.subarray(half));
      return answer;
    },
    abort: () => req.destroy(),
  };
}

describe("lane saturation (503, Retry-After: 5)", () => {
  it("refuses an upload beyond intake_concurrency while the others' bodies still stream; the other lane is unaffected", async () => {
    const s = await eventServer({ intake_concurrency: 2, intake_per_agent: 2, intake_stall_seconds: 60 });
    const validation = await splitIds(s, ANN, "validation");
    await toPhase(s, "round_1");
    const live = await splitIds(s, ANN, "live");
    const models = [await newModel(s, ANN, "a"), await newModel(s, ANN, "b"), await newModel(s, BEN, "c")];
    const bodies = [await encoded(csvUpload(models[0], live, spread(live, 1))), await encoded(csvUpload(models[1], live, spread(live, 7)))];
    const taken = placesTaken(s, 2);
    const held = bodies.map((body) => heldUpload(s.url, ROUND_UPLOAD, ANN, body));
    try {
      await taken;
      const extra = await postForm(s, ROUND_UPLOAD, BEN, csvUpload(models[2], live, spread(live, 11)));
      expect(refusal(extra)).toEqual({ status: 503, code: "lane_saturated", message: "Upload lane saturated; retry after 5 seconds." });
      expect(extra.headers.get("retry-after")).toBe("5");
      const batch = await s.call("POST", ROUND_BATCH, { key: BEN, raw: new FormData() });
      expect(batch.status).toBe(503);
      const practice = await postForm(s, PRACTICE_UPLOAD, BEN, csvUpload(models[2], validation, spread(validation)));
      expect(practice.status).toBe(202);

      const answers = await Promise.all(held.map((h) => h.finish()));
      expect(answers.map((a) => a.status)).toEqual([202, 202]);
      expect(answers.map((a) => a.json.uploads_remaining).sort()).toEqual([2, 3]);
    } finally {
      for (const h of held) h.abort();
    }
    // Every place was given back.
    expect((await postForm(s, ROUND_UPLOAD, BEN, csvUpload(models[2], live, spread(live, 11)))).status).toBe(202);
  });
});

describe("upload size limits (413)", () => {
  const event = { intake_concurrency: 1, model_file: { max_bytes: 2000, python_versions: ["3.11", "3.12", "3.13"] }, predictions_max_bytes: 3000 };
  const uploadLimit = 2000 + 3000 + 64 * 1024;

  it("names the per-file limits (model file, predictions file), then the body limit derived from them; each 413 gives its intake place back", async () => {
    const s = await eventServer(event);
    const validation = await splitIds(s, ANN, "validation");
    const m = await newModel(s, ANN, "m");
    const bigPkl = uploadForm({ model_id: m, predictions: { name: "p.csv", bytes: csv(validation.slice(0, 5), spread(validation.slice(0, 5))) }, model_pkl: { name: "big.pkl", bytes: new Uint8Array(2001) } });
    expect(refusal(await postForm(s, PRACTICE_UPLOAD, ANN, bigPkl))).toEqual({
      status: 413,
      code: "model_file_too_large",
      message: "Model file too large: the limit is 2000 bytes.",
    });
    const many = csv(validation, spread(validation));
    expect(many.length).toBeGreaterThan(3000);
    expect(refusal(await postForm(s, PRACTICE_UPLOAD, ANN, uploadForm({ model_id: m, predictions: { name: "p.csv", bytes: many } })))).toEqual({
      status: 413,
      code: "predictions_file_too_large",
      message: "File too large: the limit is 3000 bytes.",
    });
    const huge = uploadForm({ model_id: m, predictions: { name: "p.csv", bytes: new Uint8Array(uploadLimit) } });
    const whole = await postForm(s, PRACTICE_UPLOAD, ANN, huge);
    expect(refusal(whole)).toEqual({ status: 413, code: "payload_too_large", message: `Payload too large: the limit is ${uploadLimit} bytes.` });
    expect(whole.json.detail.limit).toBe(uploadLimit);
    // A chunked body without Content-Length is counted as it streams.
    const { bytes, type } = await encoded(huge);
    const streamed = await fetch(s.url + PRACTICE_UPLOAD, {
      method: "POST",
      headers: { "X-API-Key": ANN, "content-type": type },
      body: new Blob([bytes as Uint8Array<ArrayBuffer>]).stream(),
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    // A batch may carry 25 uploads' files.
    const batchLimit = 25 * (2000 + 3000) + 64 * 1024;
    const batch = new FormData();
    batch.set("manifest", JSON.stringify({ items: [] }));
    batch.set("p", new Blob([new Uint8Array(batchLimit)]), "p.csv");
    expect(refusal(await postForm(s, ROUND_BATCH, ANN, batch))).toMatchObject({ status: 413, message: `Payload too large: the limit is ${batchLimit} bytes.` });
    // With one intake place, every refusal above gave it back.
    const ok = await postForm(s, PRACTICE_UPLOAD, ANN, csvUpload(m, validation.slice(0, 20), spread(validation.slice(0, 20))));
    expect(ok.status).toBe(202);
  });
});

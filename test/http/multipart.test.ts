import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileSpool } from "../../src/http/file-spool.js";
import { fileBytes } from "../../src/http/form-file.js";
import { readMultipart } from "../../src/http/multipart.js";

async function encoded(form: FormData): Promise<{ bytes: Uint8Array; type: string }> {
  const r = new Request("http://127.0.0.1/", { method: "POST", body: form });
  return { bytes: new Uint8Array(await r.arrayBuffer()), type: r.headers.get("content-type") as string };
}

/** `bytes` as a stream of chunks of the given sizes (cycled). */
function streamOf(bytes: Uint8Array, sizes: number[]): ReadableStream<Uint8Array> {
  let at = 0;
  let k = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      const n = sizes[k++ % sizes.length];
      controller.enqueue(bytes.slice(at, at + n));
      at += n;
    },
  });
}

describe("readMultipart", () => {
  it("reads text fields and files exactly as FormData encoded them, whatever the chunking", async () => {
    const file = Uint8Array.from({ length: 5000 }, (_, i) => (i * 37) % 256);
    const form = new FormData();
    form.set("model_id", "participant_ünï");
    form.set("predictions", new Blob([file]), 'p "q".csv');
    form.set("empty", new Blob([]), "e.pkl");
    form.set("manifest", '{"items":[]}\r\n--not a boundary');
    const { bytes, type } = await encoded(form);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 5 }), async (sizes) => {
        const fields = await readMultipart(streamOf(bytes, sizes), type);
        expect(fields.get("model_id")).toBe("participant_ünï");
        expect(fields.get("manifest")).toBe('{"items":[]}\r\n--not a boundary');
        const p = fields.get("predictions") as File;
        expect(p.name).toBe('p "q".csv');
        expect(new Uint8Array(await p.arrayBuffer())).toEqual(file);
        expect((fields.get("empty") as File).size).toBe(0);
      }),
      { numRuns: 40 },
    );
  });

  it("moves a file part past the spool's threshold to a private file as it streams, read back exactly; dispose removes it", async () => {
    const big = Uint8Array.from({ length: 5000 }, (_, i) => (i * 11) % 256);
    const small = Uint8Array.from({ length: 100 }, (_, i) => i);
    const form = new FormData();
    form.set("predictions", new Blob([big]), "p.csv");
    form.set("model_pkl", new Blob([small]), "m.pkl");
    const { bytes, type } = await encoded(form);
    const parent = mkdtempSync(join(tmpdir(), "multipart-test-"));
    const spool = new FileSpool(1000, parent);
    const fields = await readMultipart(streamOf(bytes, [97, 300]), type, spool);
    const [dir] = readdirSync(parent);
    expect(readdirSync(join(parent, dir))).toEqual(["0"]);
    expect(statSync(join(parent, dir)).mode & 0o777).toBe(0o700);
    expect(await fileBytes(fields.get("predictions") as File)).toEqual(big);
    expect((fields.get("predictions") as File).name).toBe("p.csv");
    expect(await fileBytes(fields.get("model_pkl") as File)).toEqual(small);
    await spool.dispose();
    expect(existsSync(join(parent, dir))).toBe(false);
    rmSync(parent, { recursive: true });
  });

  it("gives a file part held in memory as bytes of their own at each read, whole and movable to another thread", async () => {
    const small = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) % 256);
    const form = new FormData();
    form.set("predictions", new Blob([small]), "p.csv");
    const { bytes, type } = await encoded(form);
    const part = (await readMultipart(streamOf(bytes, [50, 50, 50]), type)).get("predictions") as File;
    const first = await fileBytes(part);
    expect(first).toEqual(small);
    expect([first.byteOffset, first.byteLength]).toEqual([0, first.buffer.byteLength]);
    // Moving the first copy's memory away leaves the part, and the next copy, whole.
    structuredClone(first, { transfer: [first.buffer as ArrayBuffer] });
    expect(first.byteLength).toBe(0);
    expect(await fileBytes(part)).toEqual(small);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(small);
  });

  it("refuses a body without its closing boundary, a part without a name, a type without a boundary, and a text field over 1 MiB", async () => {
    const { bytes, type } = await encoded((() => { const f = new FormData(); f.set("a", "b"); return f; })());
    await expect(readMultipart(streamOf(bytes.subarray(0, bytes.length - 10), [64]), type)).rejects.toThrow(/closing boundary/);
    const b = type.split("boundary=")[1];
    const nameless = new TextEncoder().encode(`--${b}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${b}--\r\n`);
    await expect(readMultipart(streamOf(nameless, [64]), type)).rejects.toThrow(/no Content-Disposition/);
    await expect(readMultipart(streamOf(bytes, [64]), "multipart/form-data")).rejects.toThrow(/no boundary/);
    const long = await encoded((() => { const f = new FormData(); f.set("manifest", "x".repeat(1024 * 1024 + 1)); return f; })());
    await expect(readMultipart(streamOf(long.bytes, [65536]), long.type)).rejects.toThrow(/the text field 'manifest' exceeds 1048576 bytes/);
  });
});

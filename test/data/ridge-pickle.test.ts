import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { requires } from "../helpers/requires.js";
import { ridgePickle } from "../../src/data/ridge-pickle.js";

requires("python").describe("ridgePickle", () => {
  it("answers a failure with its reason, never throwing, when its temporary directory cannot be made", async () => {
    const notADir = join(tmpdir(), `basecamp-not-a-dir-${process.pid}`);
    writeFileSync(notADir, "");
    const before = process.env.TMPDIR;
    process.env.TMPDIR = notADir;
    try {
      const out = await ridgePickle(["feature_a"], { coefficients: Float64Array.of(1), intercept: 0 }, 0);
      expect(out.ok).toBe(false);
      if (!out.ok) expect(out.error).toMatch(/^pickling the ridge failed: ENOTDIR/);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  });

  it("gives bytes that carry no trace of where Basecamp is installed (the event log holds their digest)", async () => {
    const out = await ridgePickle(["feature_a"], { coefficients: Float64Array.of(0.5), intercept: 0.1 }, 2);
    if (!out.ok) throw new Error(out.error);
    const text = Buffer.from(out.bytes).toString("latin1");
    expect(text).toContain("make_ridge_pickle.py");
    expect(text).not.toContain(fileURLToPath(new URL("../..", import.meta.url)));
  });
});

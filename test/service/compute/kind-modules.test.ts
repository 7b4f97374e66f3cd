import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect } from "vitest";
import { eventHarness } from "../../helpers/event-harness.js";
import { usingInterpreter } from "../../helpers/python.js";
import { requires } from "../../helpers/requires.js";

const ANN = "key-ann-00000001";

/**
 * Debian's python3 with scikit-learn hidden: a wrapper that puts first on its path a `sklearn`
 * package whose import fails as a missing one does. Everything else it imports is Debian's own.
 */
const dir = mkdtempSync(join(tmpdir(), "kind-modules-"));
mkdirSync(join(dir, "shadow", "sklearn"), { recursive: true });
writeFileSync(join(dir, "shadow", "sklearn", "__init__.py"), `raise ModuleNotFoundError("No module named 'sklearn'")\n`);
const PYTHON = join(dir, "python3");
writeFileSync(PYTHON, `#!/bin/sh\nPYTHONPATH=${join(dir, "shadow")} exec /usr/bin/python3 "$@"\n`);
chmodSync(PYTHON, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

usingInterpreter(PYTHON);

// custom_model_fn always trains in the sandbox, which runs the wrapper's own interpreter
// (/usr/bin/python3, without the wrapper's path): there scikit-learn imports.
requires("python", "training").it("refuses (400) a kind whose module the training Python cannot import, naming it and the kinds it does train", async () => {
  const h = eventHarness({ compute: { budget_usd: "5" } });
  h.ctx.modelIsolation = "trusted";
  const reason = `the training interpreter ${PYTHON} cannot import sklearn (ModuleNotFoundError: No module named 'sklearn')`;
  for (const model of ["random_forest", "mlp", "xgboost"]) {
    const message = `model '${model}' is not trained here: ${reason}. This deployment trains ridge, custom.`;
    await expect(h.service.train(ANN, { model })).rejects.toMatchObject({ status: 400, code: "train_model_unsupported", message });
    await expect(h.service.train(ANN, { model, dry_run: true })).rejects.toMatchObject({ status: 400, message });
  }
  // A ridge trains in TypeScript: it needs no module.
  await expect(h.service.train(ANN, { model: "ridge", dry_run: true })).resolves.toMatchObject({ model: "ridge" });
  expect(await h.service.computeCredits(ANN)).toMatchObject({ reserved_cents: 0 });
});

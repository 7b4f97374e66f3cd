import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The project venv's interpreter (`<repo>/.venv/bin/python`: pandas 3, pyarrow, lightgbm, cloudpickle 3, made by .ci/run), or null where there is none. */
export const VENV_PYTHON: string | null = (() => {
  const path = fileURLToPath(new URL("../../.venv/bin/python", import.meta.url));
  return existsSync(path) ? path : null;
})();

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pythonPath } from "../helpers/python.js";
import { refusal } from "../helpers/refusal.js";
import { requires } from "../helpers/requires.js";
import { checkModelFile, type ModelFileInput, type ModelFileRules } from "../../src/participant/model-file.js";

const FIXTURES = join(import.meta.dirname, "../fixtures/pickles");
const fixture = (name: string) => new Uint8Array(readFileSync(join(FIXTURES, name)));
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

const RULES: ModelFileRules = { max_bytes: 4096, python_versions: ["3.11", "3.12", "3.13"], enforce_python_version: false };
const PREDICT = fixture("cp_function_p5.pkl");
const ESTIMATOR = fixture("pk_instance_p5.pkl");
const good = (over: Partial<ModelFileInput> = {}): ModelFileInput => ({
  filename: "model.pkl",
  bytes: PREDICT,
  sha256: sha(PREDICT),
  python_version: "3.12",
  ...over,
});

const refuseFile = (input: ModelFileInput, rules: ModelFileRules = RULES) => refusal(() => checkModelFile(input, rules));

describe("checkModelFile", () => {
  it("accepts a cloudpickled predict function and returns its digest, version and shape", () => {
    expect(checkModelFile(good(), RULES)).toEqual({
      sha256: sha(PREDICT),
      python_version: "3.12",
      python_version_accepted: true,
      shape: { kind: "callable", via: "cloudpickle.cloudpickle._make_function" },
    });
  });

  it("requires the file", () => {
    for (const input of [good({ bytes: null }), good({ bytes: new Uint8Array(), filename: null }), good({ bytes: null, filename: "x.txt", sha256: null })]) {
      const e = refuseFile(input);
      expect([e.status, e.code, e.message]).toEqual([400, "model_pkl_required", "A model .pkl file is required for hackathon submissions."]);
    }
  });

  it("requires a .pkl name, in any case", () => {
    for (const filename of ["model.pickle", "model.pkl.gz", "pkl", null, ""]) {
      const e = refuseFile(good({ filename }));
      expect([e.status, e.code, e.message]).toEqual([400, "model_pkl_not_pkl", "The model file must be a .pkl file."]);
    }
    expect(checkModelFile(good({ filename: "MODEL.PKL" }), RULES).sha256).toBe(sha(PREDICT));
  });

  it("refuses a file over the limit with 413 naming the limit, before reading the digest", () => {
    const e = refuseFile(good({ sha256: "nope" }), { ...RULES, max_bytes: PREDICT.length - 1 });
    expect([e.status, e.code]).toEqual([413, "model_file_too_large"]);
    expect(e.message).toBe(`Model file too large: the limit is ${PREDICT.length - 1} bytes.`);
    expect(checkModelFile(good(), { ...RULES, max_bytes: PREDICT.length }).sha256).toBe(sha(PREDICT));
  });

  it("requires a lowercase 64-hex sha256", () => {
    for (const sha256 of [null, undefined, "", "abc", sha(PREDICT).toUpperCase(), sha(PREDICT) + "0", "g".repeat(64)]) {
      const e = refuseFile(good({ sha256 }));
      expect([e.status, e.code, e.message]).toEqual([400, "model_pkl_sha256_invalid", "model_pkl_sha256 must be a 64-character hex SHA-256 digest."]);
    }
  });

  it("refuses a sha256 of other bytes, naming both digests", () => {
    const declared = sha(ESTIMATOR);
    const e = refuseFile(good({ sha256: declared }));
    expect([e.status, e.code]).toEqual([400, "model_pkl_sha256_mismatch"]);
    expect(e.message).toContain(declared);
    expect(e.message).toContain(sha(PREDICT));
  });

  it("requires python_version as major.minor and treats an omitted one as 3.11", () => {
    for (const python_version of ["3", "3.12.1", "py3.12", "", " 3.12", "3.x"]) {
      const e = refuseFile(good({ python_version }));
      expect([e.status, e.code, e.message]).toEqual([400, "python_version_invalid", "python_version must be 'major.minor'"]);
    }
    expect(checkModelFile(good({ python_version: undefined }), RULES).python_version).toBe("3.11");
    expect(checkModelFile(good({ python_version: null }), RULES).python_version).toBe("3.11");
  });

  it("flags a version outside the accepted set, and refuses it, naming the set, only when enforced", () => {
    expect(checkModelFile(good({ python_version: "3.10" }), RULES)).toMatchObject({ python_version: "3.10", python_version_accepted: false });
    const e = refuseFile(good({ python_version: "3.10" }), { ...RULES, enforce_python_version: true });
    expect([e.status, e.code]).toEqual([400, "python_version_unsupported"]);
    expect(e.message).toBe("python_version 3.10 is not accepted; accepted versions: 3.11, 3.12, 3.13.");
    const omitted = refuseFile(good({ python_version: undefined }), { ...RULES, python_versions: ["3.12"], enforce_python_version: true });
    expect(omitted.message).toContain("python_version 3.11 is not accepted");
  });

  it("refuses a bare estimator or a dict wrapping one with the one-model-shape text", () => {
    for (const name of ["pk_instance_p5.pkl", "pk_dict_model_p5.pkl", "cp_instance_p5.pkl"]) {
      const bytes = fixture(name);
      const e = refuseFile(good({ bytes, sha256: sha(bytes) }));
      expect([e.status, e.code, e.message]).toEqual([400, "model_shape_refused", "Everesteer runs one model shape: a cloudpickled callable."]);
    }
  });

  requires("python").it("refuses a library's function (numpy.zeros, builtins.len) cloudpickled as the model: it is not a predict callable", async () => {
    const script = "import sys, cloudpickle, numpy; sys.stdout.buffer.write(cloudpickle.dumps(numpy.zeros if sys.argv[1] == 'zeros' else len))";
    for (const [which, found] of [["zeros", "numpy.zeros"], ["len", "builtins.len"]]) {
      const bytes = new Uint8Array(execFileSync(await pythonPath(), ["-c", script, which]));
      const e = refuseFile(good({ bytes, sha256: sha(bytes) }));
      expect([e.status, e.code, e.message]).toEqual([400, "model_shape_refused", "Everesteer runs one model shape: a cloudpickled callable."]);
      expect(e.detail).toMatchObject({ found: `a reference to ${found}, a library's function, not a predict callable` });
    }
  });

  it("refuses an unreadable pickle and a torch one", () => {
    const junk = new Uint8Array(Buffer.from("not a pickle"));
    expect(refuseFile(good({ bytes: junk, sha256: sha(junk) })).code).toBe("model_pickle_invalid");
    const torch = fixture("torch_tensor_p2.pkl");
    expect(refuseFile(good({ bytes: torch, sha256: sha(torch) })).code).toBe("model_pickle_torch");
  });

  it("refuses a pickle that reaches a denied global, naming it, before looking at its shape", () => {
    for (const [name, reference] of [["unsafe_bare_system_p0.pkl", "posix.system"], ["unsafe_popen_reduce_p2.pkl", "subprocess.Popen"]]) {
      const bytes = fixture(name);
      const e = refuseFile(good({ bytes, sha256: sha(bytes) }));
      expect([e.status, e.code, e.message]).toEqual([400, "model_file_unsafe", `The model file references ${reference}, which a model file may not use.`]);
    }
  });

  it("applies the checks in the service's order", () => {
    const bad: ModelFileInput = { filename: "m.txt", bytes: ESTIMATOR, sha256: "x", python_version: "3" };
    const tiny = { ...RULES, max_bytes: 1 };
    expect(refuseFile(bad, tiny).code).toBe("model_pkl_not_pkl");
    expect(refuseFile({ ...bad, filename: "m.pkl" }, tiny).code).toBe("model_file_too_large");
    expect(refuseFile({ ...bad, filename: "m.pkl" }).code).toBe("model_pkl_sha256_invalid");
    expect(refuseFile({ ...bad, filename: "m.pkl", sha256: sha(PREDICT) }).code).toBe("model_pkl_sha256_mismatch");
    expect(refuseFile({ ...bad, filename: "m.pkl", sha256: sha(ESTIMATOR) }).code).toBe("python_version_invalid");
    expect(refuseFile({ ...bad, filename: "m.pkl", sha256: sha(ESTIMATOR), python_version: "2.7" }, { ...RULES, enforce_python_version: true }).code).toBe(
      "python_version_unsupported",
    );
    expect(refuseFile({ ...bad, filename: "m.pkl", sha256: sha(ESTIMATOR), python_version: "3.11" }).code).toBe("model_shape_refused");
  });
});

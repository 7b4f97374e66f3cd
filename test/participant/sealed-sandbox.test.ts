import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect } from "vitest";
import { requires } from "../helpers/requires.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const FIXTURE = fileURLToPath(new URL("../fixtures/participant/inherited-fds.ts", import.meta.url));
/** Leaves `argv[1]` open at descriptor 200 and the directory `argv[2]` at 201 (both inheritable), then becomes node running the fixture. */
const LAUNCHER = `import os, sys
os.dup2(os.open(sys.argv[1], os.O_RDONLY), 200)
os.dup2(os.open(sys.argv[2], os.O_RDONLY | os.O_DIRECTORY), 201)
os.execv(sys.argv[3], sys.argv[3:])
`;

const outside = mkdtempSync(join(tmpdir(), "basecamp-inherited-"));
afterAll(() => rmSync(outside, { recursive: true, force: true }));

requires("sandbox").it("gives no sandbox a descriptor its launcher inherited: not the worker's, a job's nor a machine command's", async () => {
  const secret = join(outside, "keys.json");
  writeFileSync(secret, '{"api_key": "secret"}');
  const deep = join(outside, "a", "b");
  mkdirSync(deep, { recursive: true });
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile("/usr/bin/python3", ["-c", LAUNCHER, secret, deep, process.execPath, "--import", "tsx", FIXTURE], { cwd: ROOT, timeout: 170_000 }, (error, out, err) =>
      error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out),
    );
  });
  const report = JSON.parse(stdout) as Record<string, { max_fd?: number; fstat_200: boolean; openat_201?: boolean; fstat_201?: boolean }>;
  // The launching process really holds both.
  expect(report.launcher).toEqual({ fstat_200: true, fstat_201: true });
  for (const path of ["worker", "job", "shell"]) {
    // Inside, only stdio (and the worker's two protocol pipes) plus the probe's own listing.
    expect(report[path], path).toEqual({ max_fd: path === "worker" ? 5 : 3, fstat_200: false, openat_201: false });
  }
}, 180_000);

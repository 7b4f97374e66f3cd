import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { basecamp, errorLines } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-errors-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const emptyCsv = file("empty.csv", "id,exped,prediction,target,v1_designated\n");
const badJson = file("bad.json", '{\n  "name": "x",\n  "seed": 1\n  "kind": "tournament"\n}\n');
const badToken = file("token.json", '{\n  "name": tru\n}\n');
const invalid = file("invalid.json", '{ "name": "x" }');

describe("every CLI error is one line, `basecamp: …`, with exit status 1", () => {
  it.each([
    [["run"], /^basecamp: missing required argument 'scenario' \(usage: basecamp run \[options\] <scenario>; basecamp run --help for more\)$/],
    [["nosuch"], /^basecamp: unknown command 'nosuch' \(usage: basecamp /],
    [["run", "scenarios/default-tournament.json", "--bogus"], /^basecamp: unknown option '--bogus' \(usage: basecamp run /],
    [["score", emptyCsv], /^basecamp: .*empty\.csv: no rows to score/],
    [["score", join(dir, "absent.csv")], /^basecamp: .*absent\.csv: ENOENT/],
    [["serve", "--port", "70000"], /^basecamp: --port: expected a port number from 0 to 65535, got '70000'$/],
    [["serve", "--port", "abc"], /^basecamp: --port: expected a port number from 0 to 65535, got 'abc'$/],
    [["mcp", "--key", "not-a-key-of-anyone"], /^basecamp: --key: no agent of default-tournament has this key \(its agents: copycat, /],
    [["run", badJson], /^basecamp: .*bad\.json:4:3: not JSON: Expected ',' or '}' after property value$/],
    [["run", badToken], /^basecamp: .*token\.json:2:14: not JSON: Unexpected token/],
    [["run", invalid], /^basecamp: .*invalid\.json is not a valid scenario: seed: .*; agents: /],
  ])("basecamp %j", async (args, line) => {
    const run = await basecamp(args);
    expect(run.status).toBe(1);
    expect(errorLines(run)).toHaveLength(1);
    expect(run.stderr.endsWith("\n")).toBe(true);
    expect(errorLines(run)[0]).toMatch(line);
  });
});

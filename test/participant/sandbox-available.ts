import { probeSandbox } from "../../src/participant/isolation.js";

const probe = await probeSandbox();

/**
 * Whether the sandboxed tests are skipped: only when no sandbox can be set up here and CI is unset.
 * On CI (which installs bubblewrap) a missing sandbox fails the test that checks it instead.
 */
export const skipSandbox = !probe.ok && !process.env.CI;

/** Why the sandboxed tests are skipped, for the skip's name. */
export const sandboxSkipReason = probe.ok ? "" : probe.reason;

export const sandboxProbe = probe;

import { ServiceError } from "../../src/domain/errors.js";

/** The ServiceError `fn` throws; fails the test if it returns or throws anything else. */
export function refusal(fn: () => unknown): ServiceError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ServiceError) return e;
    throw e;
  }
  throw new Error("expected a ServiceError");
}

/** The refusal `fn` throws, as `{status, code, message}`. */
export function refusalParts(fn: () => unknown): { status: number; code: string; message: string } {
  const e = refusal(fn);
  return { status: e.status, code: e.code, message: e.message };
}

/** The refusal a service call's promise rejects with, as `{status, code, message}`; fails if it resolves. */
export async function refused(p: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ServiceError) return { status: e.status, code: e.code, message: e.message };
    throw e;
  }
  throw new Error("expected a refusal, got a result");
}

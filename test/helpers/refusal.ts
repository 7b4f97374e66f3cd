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

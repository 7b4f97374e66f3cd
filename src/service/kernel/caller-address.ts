import { AsyncLocalStorage } from "node:async_hooks";

const address = new AsyncLocalStorage<string>();

/**
 * Runs `fn` with every service call made in it attributed to the network address `caller` (a
 * face that has one sets it; an in-process caller has none). The service counts failed
 * authentications per address (src/service/kernel/auth-failures.ts).
 */
export function withCallerAddress<T>(caller: string, fn: () => T): T {
  return address.run(caller, fn);
}

/** The network address of the call being served, if a face set one. */
export function callerAddress(): string | undefined {
  return address.getStore();
}

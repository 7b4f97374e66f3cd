import type { Principal } from "../kernel/auth.js";
import type { ClockControl } from "../cadence/clock-control.js";
import type { ServiceContext } from "../kernel/context.js";
import type { UploadPath } from "../event/uploads.js";

/** What an operation's handler runs with. */
export interface Call {
  ctx: ServiceContext;
  /**
   * The caller, authenticated and counted against the operation's rate limit before the handler
   * runs (a keyed operation's only: the organiser's, public and key-optional ones have none).
   */
  principal: Principal;
  /** The key as the caller sent it (the key-optional `whoami` reads it itself). */
  key: string | undefined;
  authenticate(key: string | undefined): Principal;
  /** How an upload's (or a machine command's) steps reach the serial path, its files checked meanwhile. */
  uploadPath: UploadPath;
  /** The organiser's hold on the clock; refused when the service has none. */
  clockControl(): ClockControl;
}

/** An operation's handler: the call, then the operation's arguments. */
export type Handler = (call: Call, ...args: any[]) => unknown;

/**
 * A handler that runs off the serial path once its caller is authenticated and counted, taking the
 * serial steps it needs itself (`uploadPath.serial`): an upload, whose files are read meanwhile.
 */
export const offPath = <H extends Handler>(handler: H): H => Object.assign(handler, { offPath: true });

export const isOffPath = (handler: Handler): boolean => (handler as { offPath?: boolean }).offPath === true;

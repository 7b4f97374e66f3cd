import { refuse } from "../../domain/errors.js";
import { keyDigest } from "../../domain/ids.js";
import type { Scope } from "./deployment.js";
import type { ServiceContext } from "./context.js";
import { keyHolder } from "../../store/agents.js";

/** The caller an API key stands for. */
export interface Principal {
  agent_id: string;
  agent: string;
  scope: Scope;
  fingerprint: string;
  email_confirmed: boolean;
}

/**
 * Who is calling: refuses a missing, unknown or blocked key. The digests of keys found in the store
 * are kept (ServiceState.knownDigests), so a caller's key is hashed once rather than on every call.
 * Only keys the store knows are kept (an unknown key is hashed each time), so no caller can grow it
 * past the store's own key table; what the store says of a key (blocked, its scope) is read afresh.
 */
export function authenticate(ctx: ServiceContext, key: string | undefined | null): Principal {
  if (key === undefined || key === null || key === "") throw refuse("missing_api_key");
  const known = ctx.state.knownDigests;
  const digest = known.get(key) ?? keyDigest(key);
  const row = keyHolder(ctx.db, digest);
  if (!row) throw refuse("invalid_api_key");
  known.set(key, digest);
  if (row.blocked) throw refuse("account_blocked");
  return {
    agent_id: row.agent_id,
    agent: row.agent,
    scope: row.scope as Scope, // written from the deployment's scopes (initialiseStore)
    fingerprint: row.fingerprint,
    email_confirmed: row.email_confirmed === 1,
  };
}

/** The product a scope belongs to: event and practice keys are both confined to the event. */
const productOf = (s: Scope) => (s === "practice" ? "event" : s);

/**
 * Refuses a key whose scope is not among `allowed` for the operation `what`: an LLM-scoped key on
 * any such operation; a key confined to the other product (an event key on a tournament operation,
 * a tournament key on an event lane) as `scope_restricted`; a key of the right product without the
 * capability (a practice key on the round lane) as `insufficient_scope`.
 */
export function requireScope(p: Principal, allowed: Scope[], what: string): void {
  if (allowed.includes(p.scope)) return;
  if (p.scope === "llm") throw refuse("llm_scope_only", { what });
  if (!allowed.some((s) => productOf(s) === productOf(p.scope))) throw refuse("scope_restricted", { what, scope: p.scope });
  throw refuse("insufficient_scope", { what, needed: withArticle(allowed.join(" or ")) });
}

/** "an event", "a tournament or event": the indefinite article a scope list reads with. */
const withArticle = (words: string) => `${/^[aeiou]/.test(words) ? "an" : "a"} ${words}`;

/** Scopes that may read rounds, schedules and boards: every key but an LLM-scoped one. */
export const readerScopes: Scope[] = ["tournament", "event", "practice"];

/** Staking needs a confirmed e-mail (spec, Authentication 7); a staking operation calls this first. */
export function requireConfirmedEmail(p: Principal): void {
  if (!p.email_confirmed) throw refuse("email_not_verified");
}

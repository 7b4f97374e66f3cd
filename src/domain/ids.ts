import { createHash } from "node:crypto";

/**
 * Ids the service hands out (`mdl_…`, `sub_…`): a pure function of the deployment seed, the kind
 * and a per-kind sequence number, so the same scenario and seed always hand out the same ids.
 */
export function serviceId(prefix: string, seed: string | number, kind: string, n: number): string {
  return `${prefix}_${createHash("sha256").update(`${seed}/${kind}/${n}`).digest("hex").slice(0, 16)}`;
}

/** An API key's SHA-256 digest (64 hex digits): what the store keeps in its place. */
export function keyDigest(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** A stable fingerprint of an API key, safe to show: never the key itself. */
export function keyFingerprint(key: string): string {
  return `sha256:${keyDigest(key).slice(0, 16)}`;
}

/** An agent's id: its scenario name, prefixed. */
export function agentId(name: string): string {
  return `agt_${name}`;
}

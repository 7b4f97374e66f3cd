import { describe, expect, it } from "vitest";
import { ServiceError } from "../../../src/domain/errors.js";
import { authenticate, requireConfirmedEmail } from "../../../src/service/kernel/auth.js";
import { harness } from "../../helpers/service-harness.js";
import { smallScenario } from "../../helpers/small-scenario.js";

describe("staking's e-mail rule", () => {
  it("refuses a principal whose e-mail is not confirmed with 403, and lets a confirmed one through", () => {
    const agents = [...smallScenario().agents, { name: "una", key: "key-una-00000011", email_confirmed: false, strategy: "random" }];
    const { ctx } = harness(smallScenario({ agents }));
    expect(() => requireConfirmedEmail(authenticate(ctx, "key-alice-0001"))).not.toThrow();
    let caught: unknown;
    try {
      requireConfirmedEmail(authenticate(ctx, "key-una-00000011"));
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ServiceError);
    expect((caught as ServiceError).detail).toEqual({ code: "email_not_verified", message: "E-mail not verified" });
    expect((caught as ServiceError).status).toBe(403);
  });
});

describe("authenticate", () => {
  it("reads what the store says of a key on every call, after the key has been seen", () => {
    const { ctx } = harness();
    expect(authenticate(ctx, "key-alice-0001").agent).toBe("alice");
    ctx.db.prepare("UPDATE agents SET blocked = 1 WHERE name = 'alice'").run();
    expect(() => authenticate(ctx, "key-alice-0001")).toThrow(expect.objectContaining({ code: "account_blocked" }));
    ctx.db.prepare("DELETE FROM keys WHERE agent_id = (SELECT id FROM agents WHERE name = 'alice')").run();
    expect(() => authenticate(ctx, "key-alice-0001")).toThrow(expect.objectContaining({ code: "invalid_api_key" }));
  });
});

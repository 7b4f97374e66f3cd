import { describe, expect, it } from "vitest";
import { onLoopback } from "../../sim/sweep/ray-pool.js";

describe("onLoopback (whose driver must take 127.0.0.1 as its node's address)", () => {
  it("holds for this machine's loopback, with or without a port", () => {
    for (const address of ["127.0.0.1:6379", "127.0.0.1", "localhost:6379", "[::1]:6379", "127.0.1.1:6379"]) expect(onLoopback(address), address).toBe(true);
  });

  it("does not for a cluster's address or auto", () => {
    for (const address of ["10.0.0.7:6379", "head.example:6379", "auto", "192.0.2.2:6379", "[2001:db8::1]:6379"]) expect(onLoopback(address), address).toBe(false);
  });
});

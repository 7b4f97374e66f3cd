import type { LegacyStakingTool } from "../../../contract/staking.js";
import { refuse } from "../../../domain/errors.js";
import { requireScope, type Principal } from "../../kernel/auth.js";
import type { ServiceContext } from "../../kernel/context.js";
import { requireTournamentStaking } from "../../kernel/settings/staking.js";

export type { LegacyStakingTool };

/** The tools that read the deposit address or its forwarder, rather than move money through it. */
const addressReads: LegacyStakingTool[] = ["get_deposit_address", "get_forwarder_balance"];

/**
 * A legacy staking tool on Basecamp's deployment, which simulates the real-money service: 410
 * `forwarder_path_retired` for the tools that stake, relay or withdraw, 410 `no_deposit_address`
 * for the deposit-address reads; both point at stake_from_wallet. The test network's forwarder
 * is not simulated.
 */
export function legacyStaking(ctx: ServiceContext, p: Principal, tool: LegacyStakingTool): never {
  requireTournamentStaking(ctx);
  requireScope(p, ["tournament"], tool);
  throw refuse(addressReads.includes(tool) ? "no_deposit_address" : "forwarder_path_retired", { tool });
}

import { z } from "zod";
import { parseUsdc } from "../src/domain/money.js";

/** An amount of USDC written as a decimal string ("2.5"), at most 6 decimals: money never passes through a float. */
export const usdcString = z
  .string()
  .refine((t) => parseUsdc(t) !== null, 'expected a USDC amount as a decimal string with at most 6 decimals, e.g. "2.5"');

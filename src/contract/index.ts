import { boardOperations } from "./boards.js";
import { computeOperations } from "./compute.js";
import { dataOperations } from "./data.js";
import { diagnosticsOperations, eventOperations } from "./event.js";
import { eventStakingOperations, finalWindowOperations } from "./event-staking.js";
import { machineOperations } from "./machine.js";
import { modelFileOperations } from "./model-files.js";
import { modelOperations } from "./models.js";
import type { Operation, RestRoute } from "./operation.js";
import { roundOperations } from "./rounds.js";
import { simOperations } from "./sim.js";
import { stakingOperations } from "./staking.js";
import { statusOperations } from "./status.js";
import { submitOperations } from "./submit.js";

/**
 * Every operation of the service, by the name every face calls it (`createModel`), in the order
 * the REST endpoints are served (the benchmark download before the dataset download: both share
 * `/api/v1/futures/data/`).
 */
export const operations = {
  ...statusOperations,
  ...roundOperations,
  ...dataOperations,
  ...boardOperations,
  ...modelOperations,
  ...modelFileOperations,
  ...submitOperations,
  ...stakingOperations,
  ...eventOperations,
  ...eventStakingOperations,
  ...finalWindowOperations,
  ...computeOperations,
  ...machineOperations,
  ...diagnosticsOperations,
  ...simOperations,
};

export type Operations = typeof operations;
export type OperationName = keyof Operations;

/** The operations as a list of `[name, operation]`, typed loosely for the faces' loops. */
export const operationList = Object.entries(operations) as [OperationName, Operation][];

/** The operations a participant's client offers: neither the organiser's nor a retired one. */
export type ClientOperationName = {
  [N in OperationName]: Operations[N] extends { scope: "organiser" } | { client: false } ? never : N;
}[OperationName];

export const clientOperations = operationList
  .filter(([, op]) => op.scope !== "organiser" && op.client !== false)
  .map(([name]) => name) as ClientOperationName[];

/** The served document describing the REST endpoints (not an operation of the service). */
export const openApiRoute: RestRoute = {
  method: "GET",
  path: "/api/v1/openapi.json",
  operationId: "openapi",
  summary: "This document",
  responses: { 200: "The OpenAPI 3.1 document" },
};

/** The prefix of the service's own REST paths (the access gate and the key rules apply under it). */
export const API_PREFIX = "/api/v1/";

export type { Lane, McpTool, Operation, OperationScope, RestRoute } from "./operation.js";

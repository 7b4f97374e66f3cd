import { z } from "zod";
import { operation } from "./operation.js";

const modelNotFound = "No model '{name}'. Create it first with create_model. | Model not found";
const modelRef = z.string().describe("The model's id (mdl_…) or its returned name");

/** Model registration, listing and archiving. */
export const modelOperations = {
  createModel: operation({
    scope: "key",
    rate: "create_model",
    rest: [
      {
        method: "POST",
        path: "/api/v1/models",
        operationId: "create_model",
        summary: "Registers a model; a name the caller already owns answers 200 with status already_exists",
        body: "CreateModelBody",
        status: (answer) => (answer.status === "created" ? 201 : 200),
        responses: { 201: "Created (status: created)", 200: "status: already_exists", 409: "A model named '{name}' already exists." },
      },
    ],
    mcp: [
      {
        name: "create_model",
        description:
          "Registers a model; needed once before any submit. A name you already own answers status already_exists. " +
          "On an event the server names the model (participant_…): use the returned name or id afterwards.",
        input: { name: z.string().describe("The model's name (on an event: only your private label)") },
      },
    ],
  }),
  getModels: operation({
    scope: "reader",
    rate: "get_models",
    rest: [
      {
        method: "GET",
        path: "/api/v1/models",
        operationId: "get_models",
        summary: "The caller's active models with lane_active and lane_note",
        responses: { 200: "{models: [...]}" },
      },
    ],
    mcp: [{ name: "get_models", description: "Your active models, each with id, name, lane_active and lane_note.", input: {}, readOnly: true }],
  }),
  archiveModel: operation({
    scope: "key",
    rate: "archive_model",
    rest: [
      {
        method: "POST",
        path: "/api/v1/models/{model}/archive",
        operationId: "archive_model",
        summary: "Archives a model by id or name; its name is free again, its scores stay",
        responses: { 200: "The archived model record", 404: modelNotFound },
      },
    ],
    mcp: [
      {
        name: "archive_model",
        description: "Archives one of your models by id or name: its name is free again, its scores stay.",
        input: { model: modelRef },
      },
    ],
  }),
};

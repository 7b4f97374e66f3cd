import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { addTool, type ToolContext } from "./tool.js";

const modelRef = z.string().describe("The model's id (mdl_…) or its returned name");

/** Model registration, listing and archiving. */
export function registerModelTools(server: McpServer, { service, key, log }: ToolContext): void {
  addTool(server, log, {
    name: "create_model",
    description:
      "Registers a model; needed once before any submit. A name you already own answers status already_exists. " +
      "On an event the server names the model (participant_…): use the returned name or id afterwards.",
    input: { name: z.string().describe("The model's name (on an event: only your private label)") },
    run: ({ name }) => service.createModel(key, { name }),
  });
  addTool(server, log, {
    name: "get_models",
    description: "Your active models, each with id, name, lane_active and lane_note.",
    input: {},
    readOnly: true,
    run: () => service.getModels(key),
  });
  addTool(server, log, {
    name: "archive_model",
    description: "Archives one of your models by id or name: its name is free again, its scores stay.",
    input: { model: modelRef },
    run: ({ model }) => service.archiveModel(key, model),
  });
}

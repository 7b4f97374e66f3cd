import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Lane } from "../store/uploads.js";
import { addTool, type ToolContext } from "./tool.js";
import { uploadArgs, uploadInput } from "./upload-input.js";

const uploadId = { upload_id: z.string().min(1).describe("The upload_id an upload answered with") };

const lanes: Record<Lane, { one: string; batch: string; about: string }> = {
  round: {
    one: "submit_event_predictions",
    batch: "submit_event_predictions_batch",
    about: "the event round lane (scored for the event; fenced outside an open round, 409 cadence_not_open; draws on the upload pool)",
  },
  practice: {
    one: "submit_validation_diagnostics",
    batch: "submit_diagnostics_batch",
    about: "the practice board lane (display only; open in every phase of a running event; free of the upload pool)",
  },
};

/** The two event lanes (one upload or a batch each), the runs they start, the event boards. */
export function registerEventTools(server: McpServer, { service, key, transport, log }: ToolContext): void {
  const upload = { round: service.uploadRound, practice: service.uploadPractice };
  /** The key is checked before any file argument is read; the limits bound what is read. */
  const files = async () => ({ transport, limits: await service.fileLimits(key) });
  for (const lane of ["round", "practice"] as const) {
    addTool(server, log, {
      name: lanes[lane].one,
      description:
        `One upload on ${lanes[lane].about}: a predictions file (predictions_base64 with predictions_filename, or inline ` +
        "predictions) and the model .pkl (model_pkl_base64), as contents; over stdio a local path (predictions_path, " +
        "model_pkl_path) may stand for a file, never over HTTP. Accepted uploads answer with upload_id, status accepted and " +
        "uploads_remaining; scoring finishes later (poll get_run).",
      input: uploadArgs,
      run: async (args) => upload[lane](key, uploadInput(args, await files())),
    });
    addTool(server, log, {
      name: lanes[lane].batch,
      description:
        `A batch of 1 to 25 uploads on ${lanes[lane].about}, each item with the arguments of ${lanes[lane].one}. ` +
        "Each item gets its own outcome (accepted, replayed or refused with {status, code, message}); all_succeeded says whether all passed.",
      input: { items: z.array(z.object(uploadArgs)).describe("1 to 25 uploads") },
      run: async ({ items }) => {
        const context = await files();
        return service.uploadBatch(key, lane, items.map((item, i) => uploadInput(item, context, ["items", i])));
      },
    });
  }
  addTool(server, log, {
    name: "get_run",
    description: "The status of an upload on either lane: accepted → scoring → finalised | failed | cancelled, with its scores once finalised.",
    input: uploadId,
    readOnly: true,
    run: ({ upload_id }) => service.getRun(key, upload_id),
  });
  addTool(server, log, {
    name: "delete_run",
    description: "Cancels a queued or scoring run (its pool place comes back), or removes a failed or cancelled one before a retry.",
    input: uploadId,
    run: ({ upload_id }) => service.deleteRun(key, upload_id),
  });
  addTool(server, log, {
    name: "get_event_round_board",
    description: "One event round's board (window round_N); sealed, with no rows, until the next round opens.",
    input: { window: z.string().min(1).describe("The round window, e.g. round_1") },
    readOnly: true,
    run: ({ window }) => service.eventRoundBoard(key, window),
  });
  addTool(server, log, {
    name: "get_diagnostics_leaderboard",
    description: "The practice board: each model's latest practice score; display only, never counts.",
    input: {},
    readOnly: true,
    run: () => service.practiceBoard(key),
  });
}

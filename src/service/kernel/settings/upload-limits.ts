import type { PredictionsLimits } from "../../../data/predictions-file.js";
import type { EventSettings } from "../deployment.js";

/**
 * The defaults of the event's bounds on uploaded files beyond their byte sizes. A round's universe
 * is a few thousand rows, so 200 000 rows leave room for any honest file and keep a hostile one's
 * id set, digest and stored copy to tens of megabytes.
 */
export const EVENT_UPLOAD_DEFAULTS = {
  predictions_max_rows: 200_000,
  predictions_max_uncompressed_bytes: 64 * 1024 * 1024,
  predictions_max_columns: 64,
  upload_check_workers: 2,
  upload_check_memory_mb: 512,
};

/** The event's bounds on a predictions file, as the parser takes them. */
export function predictionsLimits(event: EventSettings): PredictionsLimits {
  return {
    max_bytes: event.predictions_max_bytes,
    max_rows: event.predictions_max_rows,
    max_uncompressed_bytes: event.predictions_max_uncompressed_bytes,
    max_columns: event.predictions_max_columns,
  };
}

import type { PredictionsLimits } from "../../../data/predictions-file.js";
import type { EventSettings } from "../deployment.js";

export { EVENT_UPLOAD_DEFAULTS } from "../../../contract/deployment.js";

/** The event's bounds on a predictions file, as the parser takes them. */
export function predictionsLimits(event: EventSettings): PredictionsLimits {
  return {
    max_bytes: event.predictions_max_bytes,
    max_rows: event.predictions_max_rows,
    max_uncompressed_bytes: event.predictions_max_uncompressed_bytes,
    max_columns: event.predictions_max_columns,
  };
}

/**
 * An upload's parsed predictions (ids as JSON text, values as float64) move to a table of their
 * own. SQLite rewrites a whole row when any column changes, so each status change of a run whose
 * file held half a million ids rewrote its megabytes (a second of a served event's serial path
 * for a batch of large files); the run's row is now small and the predictions are written once.
 */
export const sql = `
CREATE TABLE upload_predictions (
  upload_id TEXT PRIMARY KEY REFERENCES uploads(upload_id),
  ids TEXT NOT NULL,
  predictions BLOB NOT NULL
);
INSERT INTO upload_predictions (upload_id, ids, predictions) SELECT upload_id, ids, predictions FROM uploads;
ALTER TABLE uploads DROP COLUMN ids;
ALTER TABLE uploads DROP COLUMN predictions;
`;

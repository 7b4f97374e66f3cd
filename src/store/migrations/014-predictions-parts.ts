/**
 * An upload's predictions are kept in parts (`predictions_parts`, numbered within a stage), and
 * `upload_predictions` links an accepted upload to its stage. A large file is written a part at a
 * time, each in a short transaction of its own, before the upload is accepted: its 20 MiB in one
 * commit held the served event's main thread for 26-47 ms. Parts not linked to an upload (an
 * upload refused after staging, or a process stopped midway) are never read, and are removed when
 * the store is opened. The ids' JSON text is cut at any byte, so its parts are BLOBs.
 */
export const sql = `
CREATE TABLE predictions_parts (
  stage INTEGER NOT NULL,
  part INTEGER NOT NULL,
  ids BLOB NOT NULL,
  predictions BLOB NOT NULL,
  PRIMARY KEY (stage, part)
);
INSERT INTO predictions_parts (stage, part, ids, predictions) SELECT rowid, 0, CAST(ids AS BLOB), predictions FROM upload_predictions;
CREATE TABLE upload_stages (
  upload_id TEXT PRIMARY KEY REFERENCES uploads(upload_id),
  stage INTEGER NOT NULL UNIQUE
);
INSERT INTO upload_stages (upload_id, stage) SELECT upload_id, rowid FROM upload_predictions;
DROP TABLE upload_predictions;
ALTER TABLE upload_stages RENAME TO upload_predictions;
`;

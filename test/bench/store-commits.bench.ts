/**
 * What a store file's page size costs the serial path: the same writes in two stores that differ
 * only in their pages (4 KiB, 16 KiB), taken in turns so that a busy machine weighs on both alike.
 * An upload's three commits as a served event makes them (the upload with its 200-row predictions
 * and its log line; the run moving to scoring; the run ending), over stores already holding
 * 20 000 uploads, and a large predictions file (580 000 ids, 20 MiB of CSV) stored in one commit,
 * then in parts as the served path stages it (a part's commit, median and longest, and all of them).
 * Each store is opened with `openDb` (WAL, its checkpoints on their own thread), so only the page
 * size differs. Prints each size's mean ms per upload's commits and per large file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import { openDb, type Db } from "../../src/store/db.js";
import { appendEvent } from "../../src/store/event-log.js";
import { failRun, insertUpload, setRunStatus } from "../../src/store/uploads.js";
import { insertPredictions } from "../../src/store/upload-predictions.js";
import { stagePredictions } from "../../src/service/event/predictions-staging.js";
import { median, report } from "./measure.js";

const PAGE_SIZES = [4096, 16384];
const FILLED = 20_000;
const ROUNDS = 10;
const UPLOADS_PER_ROUND = 300;
const LARGE_ROWS = 580_000;

/** A store file whose pages are `pageBytes`: made so before `openDb` (which sets a page size only on a new file). */
function storeWithPages(dir: string, pageBytes: number): Db {
  const path = join(dir, `pages-${pageBytes}.sqlite`);
  const raw = new Database(path);
  raw.pragma(`page_size = ${pageBytes}`);
  raw.pragma("journal_mode = WAL");
  raw.close();
  const db = openDb(path);
  // The uploads name agents and models this bench does not make.
  db.pragma("foreign_keys = OFF");
  if (db.pragma("page_size", { simple: true }) !== pageBytes) throw new Error(`the store did not take ${pageBytes}-byte pages`);
  return db;
}

function idsJson(n: number, tag: string): Buffer {
  return Buffer.from(JSON.stringify(Array.from({ length: n }, (_, i) => `${tag}${i.toString(16).padStart(15, "0")}`)));
}

const small = { ids: idsJson(200, "s"), values: Buffer.alloc(200 * 8) };
let seq = 0;

/** One upload: accepted with its predictions, then (unless `only`) moved to scoring and ended, each in its own commit. */
function upload(db: Db, files = small, only = false): void {
  const s = ++seq;
  const id = `upl-${s}`;
  db.transaction(() => {
    insertUpload(db, {
      upload_id: id, seq: s, agent_id: `agent-${s % 20}`, model_id: `model-${s % 1280}`, lane: "practice", round_window: null,
      accepted_at: s, scoring_at: s + 1000, finishes_at: s + 2000, digest: `digest-${s}`, n_rows: 200, model_pkl_sha256: "sha", python_version: "3.12", idempotency_key: null,
    });
    insertPredictions(db, id, files.ids, files.values);
    appendEvent(db, s, "upload.accepted", { upload_id: id, lane: "practice", digest: `digest-${s}`, n_rows: 200 });
  })();
  if (only) return;
  db.transaction(() => {
    setRunStatus(db, id, "scoring");
    appendEvent(db, s, "run.scoring", { upload_id: id });
  })();
  db.transaction(() => {
    failRun(db, id, "no_id_overlap_practice", "none of the ids");
    appendEvent(db, s, "run.failed", { upload_id: id, code: "no_id_overlap_practice", message: "none of the ids" });
  })();
}

/**
 * The same large file as the served path stores it: in parts, each a serial step and a commit of
 * its own (src/service/event/predictions-staging.ts). The longest part holds the main thread; all
 * of them are the file's whole cost.
 */
async function staged(db: Db, files: { ids: Buffer; values: Buffer }): Promise<number[]> {
  const parts: number[] = [];
  const timed = async <T>(fn: () => T): Promise<T> => {
    const t = performance.now();
    const result = fn();
    parts.push(performance.now() - t);
    return result;
  };
  await stagePredictions(db, timed, { digest: "large", n_rows: LARGE_ROWS, ids_json: files.ids, values: files.values, scores: null });
  return parts;
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "basecamp-store-commits-"));
  try {
    const stores = PAGE_SIZES.map((size) => storeWithPages(dir, size));
    for (const db of stores) for (let i = 0; i < FILLED; i++) upload(db);
    const large = { ids: idsJson(LARGE_ROWS, "b"), values: Buffer.alloc(LARGE_ROWS * 8) };
    const uploadMs = PAGE_SIZES.map(() => 0);
    const largeMs = PAGE_SIZES.map(() => 0);
    const partsMs = PAGE_SIZES.map((): number[] => []);
    for (let r = 0; r < ROUNDS; r++) {
      for (let k = 0; k < stores.length; k++) {
        // Turns alternate which store goes first.
        const at = (r + k) % stores.length;
        let t = performance.now();
        for (let i = 0; i < UPLOADS_PER_ROUND; i++) upload(stores[at]);
        uploadMs[at] += performance.now() - t;
        t = performance.now();
        upload(stores[at], large, true);
        largeMs[at] += performance.now() - t;
        partsMs[at].push(...(await staged(stores[at], large)));
      }
    }
    for (const db of stores) db.close();
    const lines: Record<string, string> = { workload: `${FILLED} uploads in each store, then ${ROUNDS} turns of ${UPLOADS_PER_ROUND} uploads (3 commits each) and one ${LARGE_ROWS}-row file` };
    PAGE_SIZES.forEach((size, i) => {
      lines[`${size / 1024}KiB_upload_ms`] = (uploadMs[i] / (ROUNDS * UPLOADS_PER_ROUND)).toFixed(3);
      lines[`${size / 1024}KiB_large_file_ms`] = (largeMs[i] / ROUNDS).toFixed(1);
      const parts = partsMs[i];
      lines[`${size / 1024}KiB_staged_part_ms`] = `median ${median(parts).toFixed(1)}, longest ${Math.max(...parts).toFixed(1)} (${parts.length / ROUNDS} parts a file)`;
      lines[`${size / 1024}KiB_staged_file_ms`] = (parts.reduce((a, b) => a + b, 0) / ROUNDS).toFixed(1);
    });
    report("store commits: an upload's three commits and one large file (whole, and staged in parts), by page size", lines);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

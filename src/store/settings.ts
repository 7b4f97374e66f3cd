import type { Db } from "./db.js";

/** The live scoring settings, as canonical JSON (written when the store is made, changed by the organiser). */
export function scoringSettingsJson(db: Db): string {
  const row = db.prepare("SELECT value FROM settings WHERE key = 'scoring'").get() as { value: string };
  return row.value;
}

export function setScoringSettingsJson(db: Db, json: string): void {
  db.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('scoring', ?)").run(json);
}

/** The faults in force, as canonical JSON; undefined for a store made before faults were kept. */
export function faultsJson(db: Db): string | undefined {
  const row = db.prepare("SELECT value FROM settings WHERE key = 'faults'").get() as { value: string } | undefined;
  return row?.value;
}

export function setFaultsJson(db: Db, json: string): void {
  db.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('faults', ?)").run(json);
}

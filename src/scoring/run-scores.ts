import { scoreAgainst, type ExpedTerms, type PreparedExped } from "./exped.js";

/** What scoring a run found: the rows it matched over all its lane's expeds, and the terms of each exped it touched. */
export interface RunScores {
  matched: number;
  terms: ExpedTerms[];
}

/**
 * Scores a run's predictions against its lane's expeds, each exped on the rows of the file that
 * belong to it (in file order): the terms are those of the whole file, since rows outside an exped
 * are ignored by its scoring, but a file of half a million ids is looked through once instead of
 * twice per exped. State-free, so the upload check pool can run it (src/service/event/run-prescoring.ts).
 */
export function scoreRun(ids: readonly string[], values: Float64Array, truths: readonly PreparedExped[]): RunScores {
  // An instrument's id may recur in several expeds.
  const expeds = new Map<string, number[]>();
  truths.forEach((truth, k) => {
    for (const id of truth.ids.original) {
      const ks = expeds.get(id);
      if (!ks) expeds.set(id, [k]);
      else if (ks[ks.length - 1] !== k) ks.push(k);
    }
  });
  const rows: number[][] = truths.map(() => []);
  for (let i = 0; i < ids.length; i++) {
    const ks = expeds.get(ids[i]);
    if (ks) for (const k of ks) rows[k].push(i);
  }
  const terms: ExpedTerms[] = [];
  let matched = 0;
  truths.forEach((truth, k) => {
    const mine = rows[k];
    if (mine.length === 0) return;
    matched += mine.length;
    terms.push(scoreAgainst(truth, mine.map((i) => ids[i]), Float64Array.from(mine, (i) => values[i])));
  });
  return { matched, terms };
}

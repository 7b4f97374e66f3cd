import type { Rng } from "../domain/rng.js";

/**
 * The planted signal: the target's latent for a row is Σ_j w_j·z_j + ε (z the row's raw feature
 * draws, ε ~ N(0, 1)) with w = signal · (persistent + regime). The persistent part is the same in
 * every exped and is split between the core features and the rest, so neutralising against the
 * core features (NCORR) removes some of it but not all. The regime part points in a fresh random
 * direction every `regime_length` expeds, so what a learner picks up from it on train is noise on
 * validation and live: fitting train beats the benchmark, but no model sees the whole latent.
 */
const CORE_NORM = 0.1;
const OTHER_NORM = 0.11;
const REGIME_NORM = 0.12;

export class Signal {
  private readonly persistent: Float64Array;
  private readonly regimes = new Map<number, Float64Array>();

  constructor(
    private readonly rng: Rng,
    private readonly nFeatures: number,
    core: number[],
    private readonly strength: number,
    private readonly regimeLength: number,
  ) {
    const draw = rng.fork("persistent");
    const isCore = new Set(core);
    const coreIdx = [...Array(nFeatures).keys()].filter((j) => isCore.has(j));
    const otherIdx = [...Array(nFeatures).keys()].filter((j) => !isCore.has(j));
    this.persistent = new Float64Array(nFeatures);
    scaleInto(this.persistent, coreIdx, () => spread(draw), CORE_NORM);
    scaleInto(this.persistent, otherIdx, () => spread(draw), OTHER_NORM);
  }

  /** The weights of exped number `n` (1-based, the number in its label). */
  weights(n: number): Float64Array {
    const regime = Math.floor((n - 1) / this.regimeLength);
    let w = this.regimes.get(regime);
    if (!w) {
      w = new Float64Array(this.nFeatures);
      const draw = this.rng.fork(`regime:${regime}`);
      scaleInto(w, [...Array(this.nFeatures).keys()], () => draw.normal(), REGIME_NORM);
      for (let j = 0; j < w.length; j++) w[j] = this.strength * (this.persistent[j] + w[j]);
      this.regimes.set(regime, w);
    }
    return w;
  }
}

/**
 * A persistent weight: random sign, magnitude uniform in [0.5, 1.5), so the signal is spread over
 * many features and a model on a handful of them (the benchmark) finds only part of it.
 */
function spread(rng: Rng): number {
  return (rng.next() < 0.5 ? -1 : 1) * (0.5 + rng.next());
}

/** Draws at `idx`, scaled so their Euclidean norm is `norm`. */
function scaleInto(out: Float64Array, idx: number[], draw: () => number, norm: number): void {
  let ss = 0;
  for (const j of idx) {
    out[j] = draw();
    ss += out[j] * out[j];
  }
  const k = ss > 0 ? norm / Math.sqrt(ss) : 0;
  for (const j of idx) out[j] *= k;
}

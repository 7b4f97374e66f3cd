import type { Rng } from "../domain/rng.js";

/**
 * Row ids of the synthetic dataset: 16 lowercase hex characters, opaque, and never repeated
 * anywhere in one dataset (train, validation, every round). One mint per dataset remembers every
 * id it handed out and redraws on a collision.
 */
export const ROW_ID_LENGTH = 16;

export class RowIdMint {
  private readonly seen = new Set<string>();

  mint(rng: Rng, n: number): string[] {
    const ids = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      let id = rng.hex(ROW_ID_LENGTH);
      while (this.seen.has(id)) id = rng.hex(ROW_ID_LENGTH);
      this.seen.add(id);
      ids[i] = id;
    }
    return ids;
  }
}

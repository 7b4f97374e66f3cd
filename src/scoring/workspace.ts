/**
 * Scratch buffers shared by every call on this thread. Kernels are synchronous, so one set per
 * thread is safe; it only grows, so scoring many expeds or submissions allocates nothing per row.
 */
export class Workspace {
  size = 0;
  aligned = new Float64Array(0);
  values = new Float64Array(0);
  gp = new Float64Array(0);
  tmp = new Float64Array(0);
  residual = new Float64Array(0);

  ensure(n: number): this {
    if (n > this.size) {
      const size = Math.max(n, this.size * 2);
      this.size = size;
      this.aligned = new Float64Array(size);
      this.values = new Float64Array(size);
      this.gp = new Float64Array(size);
      this.tmp = new Float64Array(size);
      this.residual = new Float64Array(size);
    }
    return this;
  }
}

export const workspace = new Workspace();

/**
 * Values derived from objects, each kept with its object while the bytes kept stay within a budget
 * (over every key): a value stays as long as its key lives (a WeakMap; a key collected gives its
 * bytes back), and past the budget a new value is made and not kept. First come, first kept: a
 * caller going over the same keys in a cycle longer than the budget still finds the first ones,
 * where dropping the oldest would find none. What is kept is shared: callers only read it.
 */
export class KeptByBytes<K extends object, V> {
  private readonly kept = new WeakMap<K, V>();
  private bytes = 0;
  private readonly released = new FinalizationRegistry<number>((n) => {
    this.bytes -= n;
  });

  constructor(
    private readonly budget: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  /** The value kept for `key`, else `make()`'s (kept when it fits). */
  get(key: K, make: () => V): V {
    const known = this.kept.get(key);
    if (known !== undefined) return known;
    const value = make();
    const n = this.sizeOf(value);
    if (this.bytes + n <= this.budget) {
      this.kept.set(key, value);
      this.bytes += n;
      this.released.register(key, n);
    }
    return value;
  }
}

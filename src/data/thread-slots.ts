/**
 * A count of slots shared by callers that each run one thread: at most `size` hold one at a time,
 * the others wait their turn in order. Reading threads beyond the cores add no speed, only
 * their own memory: each is an isolate with its own modules, wasm memory and malloc arena.
 */
export class ThreadSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    if (!(Number.isInteger(size) && size >= 1)) throw new Error(`thread slots: size ${size} is not a whole number of at least 1`);
    this.free = size;
  }

  /** Runs `fn` once a slot is free, holding the slot until it settles. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next(); // the slot passes straight to the next in line
      else this.free++;
    }
  }
}

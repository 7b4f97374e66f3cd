/** Thrown when an id appears twice in one exped; `index` is the position of the second copy. */
export class DuplicateIdError extends Error {
  constructor(
    readonly id: string,
    readonly index: number,
  ) {
    super(`id '${id}' appears more than once`);
  }
}

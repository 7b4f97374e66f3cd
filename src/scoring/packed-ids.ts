/**
 * Ids as one string: `text` holds them back to back, each `width` (> 0) long, or (ids of mixed
 * lengths, or empty) ending at `ends`. Cloning one string to a worker is a copy of its characters; cloning thousands
 * of short ones costs a header and an allocation each on both threads, which dominated posting.
 */
export interface PackedIds {
  text: string;
  width: number;
  ends: Int32Array | null;
}

export function packIds(ids: string[]): PackedIds {
  const width = ids.length === 0 ? 0 : ids[0].length;
  let even = width > 0; // empty ids (or none) need `ends` to keep their count
  for (let i = 1; i < ids.length && even; i++) even = ids[i].length === width;
  const ends = even ? null : new Int32Array(ids.length);
  if (ends) ids.reduce((end, id, i) => (ends[i] = end + id.length), 0);
  return { text: ids.join(""), width, ends };
}

export function unpackIds({ text, width, ends }: PackedIds): string[] {
  if (ends) return Array.from(ends, (end, i) => text.slice(i === 0 ? 0 : ends[i - 1], end));
  const ids = new Array<string>(text.length / width);
  for (let i = 0; i < ids.length; i++) ids[i] = text.slice(i * width, (i + 1) * width);
  return ids;
}

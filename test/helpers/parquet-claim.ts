/**
 * A parquet file of a few hundred bytes whose footer claims `rows` rows of `id` (string) and
 * `prediction` (double) in one row group of `uncompressed` bytes, and holds no data: what a
 * hostile participant sends to make a reader allocate for rows that were never written. Encoded
 * by hand in Thrift's compact protocol (FileMetaData: 1 version, 2 schema, 3 num_rows, 4 row_groups).
 */
export function claimedParquet(rows: number, uncompressed = 1000): Uint8Array {
  const out: number[] = [];
  const varint = (n: number) => {
    for (; n >= 0x80; n = Math.floor(n / 128)) out.push((n % 128) | 0x80);
    out.push(n);
  };
  const zigzag = (n: number) => varint(n * 2);
  const field = (delta: number, type: number) => out.push((delta << 4) | type);
  const text = (s: string) => {
    varint(s.length);
    out.push(...Buffer.from(s));
  };
  const element = (name: string, type: number | null, children: number | null) => {
    let last = 0;
    if (type !== null) (field(1, 5), zigzag(type), (last = 1));
    field(4 - last, 8), text(name);
    if (children !== null) field(1, 5), zigzag(children);
    out.push(0);
  };
  field(1, 5), zigzag(1); // version
  field(1, 9), out.push((3 << 4) | 12); // schema: 3 structs
  element("schema", null, 2);
  element("id", 6, null);
  element("prediction", 5, null);
  field(1, 6), zigzag(rows); // num_rows
  field(1, 9), out.push((1 << 4) | 12); // row_groups: 1 struct
  field(1, 9), out.push(12); // columns: none
  field(1, 6), zigzag(uncompressed); // total_byte_size
  field(1, 6), zigzag(rows); // num_rows
  out.push(0, 0);
  const footer = Uint8Array.from(out);
  const file = new Uint8Array(4 + footer.length + 8);
  file.set(Buffer.from("PAR1"), 0);
  file.set(footer, 4);
  new DataView(file.buffer).setUint32(4 + footer.length, footer.length, true);
  file.set(Buffer.from("PAR1"), file.length - 4);
  return file;
}

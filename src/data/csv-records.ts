/**
 * CSV records one at a time (RFC 4180: quoted fields may hold commas, `""` and line breaks; LF or
 * CRLF line ends; blank lines skipped). Unquoted lines, nearly all of a predictions file, are split
 * with `indexOf`/`split` instead of a per-character walk. An unterminated quote throws
 * `CsvSyntaxError` naming the line.
 */
export class CsvSyntaxError extends Error {}

export function* csvRecords(text: string): Generator<string[]> {
  let at = 0;
  let line = 1;
  while (at < text.length) {
    let end = text.indexOf("\n", at);
    if (end < 0) end = text.length;
    const raw = text.slice(at, end > at && text[end - 1] === "\r" ? end - 1 : end);
    if (!raw.includes('"')) {
      if (raw !== "") yield raw.split(",");
      at = end + 1;
      line++;
      continue;
    }
    const record = quotedRecord(text, at, line);
    yield record.fields;
    line += record.lines;
    at = record.next;
  }
}

/** Walks one record containing quotes from `start`; returns its fields, where the next record starts and how many lines it spanned. */
function quotedRecord(text: string, start: number, line: number): { fields: string[]; next: number; lines: number } {
  const fields: string[] = [];
  let field = "";
  let i = start;
  let lines = 1;
  for (;;) {
    if (text[i] === '"') {
      const open = i;
      i++;
      for (;;) {
        const close = text.indexOf('"', i);
        if (close < 0) throw new CsvSyntaxError(`line ${line}: the quote opened at column ${open - start + 1} is never closed`);
        field += text.slice(i, close);
        for (let k = i; k < close; k++) if (text[k] === "\n") lines++;
        i = close + 1;
        if (text[i] !== '"') break;
        field += '"';
        i++;
      }
    }
    while (i < text.length && text[i] !== "," && text[i] !== "\n" && text[i] !== "\r") field += text[i++];
    fields.push(field);
    field = "";
    if (text[i] === ",") {
      i++;
      continue;
    }
    if (text[i] === "\r" && text[i + 1] === "\n") i++;
    return { fields, next: i + 1, lines };
  }
}

import { STYLE } from "./backtest-page-style.js";

/** Nothing loads from anywhere: the page's only style is inline and its charts are inline SVG. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** A self-contained report page: `title` (already escaped) as its title and heading, then `body`. */
export function reportPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`;
}

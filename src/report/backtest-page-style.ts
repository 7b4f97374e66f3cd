/** The HTML report's stylesheet, inlined in the page: system fonts only, one colour per strategy (classes s0 … s7, cycled). */

const PALETTE = ["#1f5fa8", "#e07b00", "#2f8f46", "#c03a3a", "#7a4fb0", "#8c6d1f", "#d45a9a", "#4a8f9a"];

export const STYLE = `
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1d2430; background: #fff; margin: 0; }
main { max-width: 1160px; margin: 0 auto; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; overflow-wrap: anywhere; }
h2 { font-size: 17px; margin: 28px 0 8px; }
h3 { font-size: 14px; margin: 12px 0 4px; overflow-wrap: anywhere; }
.context { color: #4b5563; margin: 0; }
figure { margin: 0; }
svg { width: 100%; height: auto; display: block; }
svg text { font: 11px system-ui, "DejaVu Sans", sans-serif; fill: #4b5563; }
svg .axis-title { font-size: 12px; fill: #1d2430; }
svg .grid { stroke: #e5e7eb; }
svg .zero { stroke: #6b7280; stroke-dasharray: 4 3; }
svg .series { fill: none; stroke: var(--c); stroke-width: 2; stroke-linejoin: round; }
svg .series.under-test { stroke-width: 3.5; }
svg .dash1 .series, svg.key.dash1 line { stroke-dasharray: 9 4; }
svg .dash2 .series, svg.key.dash2 line { stroke-dasharray: 2 4; }
svg .dash3 .series, svg.key.dash3 line { stroke-dasharray: 12 4 2 4; }
svg .marker { fill: var(--c); stroke: #fff; stroke-width: 0.8; }
svg .bar.exposure { fill: #1f5fa8; opacity: 0.8; }
svg .pooled { stroke: #111827; stroke-width: 2.5; }
svg.key { display: inline-block; flex: none; width: 28px; height: 10px; }
svg.key line { stroke: var(--c); stroke-width: 2; }
svg.key circle, svg.key rect, svg.key path { fill: var(--c); }
svg .bar.pos { fill: #2f8f46; }
svg .bar.neg { fill: #c03a3a; }
svg .bar.not-entered { fill: #9ca3af; opacity: 0.25; }
svg .benchmark { stroke: #111827; stroke-width: 2.5; }
svg .benchmark.level { stroke: var(--c); stroke-width: 2; }
.legend { list-style: none; display: flex; flex-wrap: wrap; gap: 6px 18px; padding: 0; margin: 6px 0 0; }
.legend li { display: flex; align-items: center; gap: 6px; overflow-wrap: anywhere; }
.swatch { display: inline-block; flex: none; width: 14px; height: 4px; border-radius: 2px; background: var(--c); vertical-align: middle; margin-right: 6px; }
.swatch.pos { background: #2f8f46; height: 10px; }
.swatch.neg { background: #c03a3a; height: 10px; }
.swatch.benchmark { background: #111827; height: 3px; }
.swatch.not-entered { background: #9ca3af; opacity: 0.4; height: 10px; }
.swatch.exposure { background: #1f5fa8; opacity: 0.8; height: 10px; }
.swatch.pooled { background: #111827; width: 3px; height: 12px; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 13px; }
th, td { padding: 4px 7px; border-bottom: 1px solid #e5e7eb; }
thead th { font-weight: 600; text-align: right; border-bottom: 2px solid #cbd5e1; white-space: nowrap; }
thead tr.groups th { white-space: normal; text-align: center; font-weight: 500; color: #4b5563; border-bottom: 1px solid #cbd5e1; }
th.name, thead th.name { text-align: left; }
tbody th { font-weight: 500; text-align: left; min-width: 9em; max-width: 16em; overflow-wrap: anywhere; }
td { text-align: right; white-space: nowrap; }
tr.under-test th, tr.under-test td { font-weight: 700; }
tr.not-entered td { color: #9ca3af; }
tr.delta th, tr.delta td { color: #4b5563; font-size: 12px; font-weight: 400; }
tr.delta th { padding-left: 2em; }
tr.series-name th { text-align: left; font-weight: 600; background: #f3f4f6; }
td.feature { text-align: left; }
.note.coincide { color: #92400e; }
#refusals.first { border: 2px solid #c03a3a; border-radius: 6px; padding: 4px 14px; margin-top: 16px; }
.note { color: #4b5563; font-size: 13px; }
#refusals li { overflow-wrap: anywhere; }
${PALETTE.map((c, i) => `.s${i} { --c: ${c}; }`).join("\n")}
`;

/** The colour class of the i-th strategy. */
export const colourClass = (i: number): string => `s${i % PALETTE.length}`;

/**
 * `npm run deps`: prints every import circle and every upward arrow between the rooms of `src/`
 * (the rules and what counts as an import: ./import-graph.ts), and exits 1 when there is any.
 */
import { fileURLToPath } from "node:url";
import { describeArrow, describeCircle, importCircles, readImportGraph, unplacedRooms, upwardArrows } from "./import-graph.js";

const graph = readImportGraph(fileURLToPath(new URL("../..", import.meta.url)));
const sections: [string, string[]][] = [
  ["import circles", importCircles(graph).map(describeCircle)],
  ["upward arrows", upwardArrows(graph).map(describeArrow)],
  ["rooms not placed in ROOMS (test/architecture/import-graph.ts)", unplacedRooms(graph)],
  ["imports naming no file", graph.unresolved.map(({ from, specifier }) => `${from}: ${specifier}`)],
];
for (const [title, lines] of sections) {
  console.log(`${title}: ${lines.length}`);
  for (const line of lines) console.log(`  ${line}`);
}
console.log(`(${graph.files.length} files, ${graph.edges.length} imports)`);
process.exitCode = sections.some(([, lines]) => lines.length > 0) ? 1 : 0;

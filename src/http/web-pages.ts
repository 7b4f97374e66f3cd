import type { WebAsset } from "./web-assets.js";

/** The page every view of the app shares: its head, sign-in form and summary, with `{{slot}}`s. */
const SHELL = "page.html";

/**
 * A view's page, written once when the server starts: the shared page with each of its `{{slot}}`s
 * filled from the view's file, where `<!-- slot name -->` begins a slot's text (up to the next, less
 * one final newline; what comes before the first is a comment). A slot the view leaves unfilled,
 * or one the shared page does not have, stops the server from starting, naming it.
 */
export function viewPage(assets: ReadonlyMap<string, WebAsset>, view: string): WebAsset {
  const shell = assets.get(SHELL);
  const own = assets.get(view);
  if (shell === undefined || own === undefined) throw new Error(`the web app has no ${shell === undefined ? SHELL : view}`);
  const pieces = new TextDecoder().decode(own.bytes).split(/<!-- slot (\w+) -->/);
  const slots = new Map<string, string>();
  for (let i = 1; i < pieces.length; i += 2) slots.set(pieces[i], pieces[i + 1].replace(/\n$/, ""));
  const used = new Set<string>();
  const page = new TextDecoder().decode(shell.bytes).replace(/\{\{(\w+)\}\}/g, (_, slot: string) => {
    const text = slots.get(slot);
    if (text === undefined) throw new Error(`web page ${view} fills no slot ${slot} of ${SHELL}`);
    used.add(slot);
    return text;
  });
  const unknown = [...slots.keys()].filter((slot) => !used.has(slot));
  if (unknown.length > 0) throw new Error(`web page ${view} fills slots ${SHELL} does not have: ${unknown.join(", ")}`);
  return { type: shell.type, bytes: new TextEncoder().encode(page) as Uint8Array<ArrayBuffer> };
}

// Basecamp's web app: what both pages share. Every string reaches the page through textContent.

/** Rows a live list keeps; older rows are dropped so a page left open stays bounded. */
export const MAX_ROWS = 200;

/** An element with attributes and children (strings become text nodes, never markup). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "onclick") node.addEventListener("click", value);
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replaces the children of the element with this id. */
export function fill(id, ...children) {
  const node = document.getElementById(id);
  node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined));
  return node;
}

/** A value as a cell shows it: numbers to 4 places, nested values as compact JSON. */
export function show(value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : value.toFixed(4);
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** Micro-USDC as USDC. */
export function usdc(micro) {
  return micro === null || micro === undefined ? "—" : `${(micro / 1e6).toFixed(2)} USDC`;
}

/** A table of `rows` (objects); `columns` defaults to the first row's scalar fields. */
export function table(rows, columns, rowClass = () => null) {
  if (!rows || rows.length === 0) return el("p", { class: "empty" }, "none yet");
  const cols = columns ?? Object.keys(rows[0]).filter((k) => typeof rows[0][k] !== "object" || rows[0][k] === null);
  return el(
    "table",
    {},
    el("thead", {}, el("tr", {}, cols.map((c) => el("th", {}, c)))),
    el("tbody", {}, rows.map((r) => el("tr", { class: rowClass(r) }, cols.map((c) => el("td", {}, show(r[c])))))),
  );
}

/** Rows of a board the pages draw: a board of a thousand models costs the browser little to redraw. */
export const BOARD_ROWS_SHOWN = 50;

/** A board: what ranks it, then its top rows (and how many there are). */
export function board(b, note = null) {
  const rows = b.rows ?? [];
  const shown = rows.length > BOARD_ROWS_SHOWN ? ` · top ${BOARD_ROWS_SHOWN} of ${rows.length}` : "";
  return el("div", { class: "board" }, el("p", { class: "metric" }, `ranked by ${b.rank_metric}${shown}${note ? ` · ${note}` : ""}`), table(rows.slice(0, BOARD_ROWS_SHOWN)));
}

/** A key/value list. */
export function facts(entries) {
  return el("dl", { class: "facts" }, entries.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, show(v))]));
}

/** A refusal's text as the API gave it. */
export function refusalText(answer) {
  const d = answer.json && answer.json.detail;
  return d && d.message ? `${answer.status} ${d.code}: ${d.message}` : `HTTP ${answer.status}`;
}

/** A call with the key in its header (never in the URL); answers `{ok, status, json}`. */
export async function call(key, method, path, body) {
  const headers = { "X-API-Key": key };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store" });
  let json = null;
  try {
    json = await res.json();
  } catch {
    json = null;
  }
  return { ok: res.ok, status: res.status, json };
}

/**
 * Reads a server-sent-events stream with the key in a header (EventSource cannot send one),
 * handing each message's JSON to `onMessage`. Reconnects after a drop, waiting longer each time;
 * stops on a refusal (`onRefused` gets it) or when `stop()` is called.
 */
export function liveStream(key, path, { onMessage, onRefused, onState }) {
  const abort = new AbortController();
  let wait = 1000;
  const run = async () => {
    while (!abort.signal.aborted) {
      try {
        const res = await fetch(path, { headers: { "X-API-Key": key, accept: "text/event-stream" }, signal: abort.signal, cache: "no-store" });
        if (!res.ok) {
          let json = null;
          try {
            json = await res.json();
          } catch {
            json = null;
          }
          onRefused({ status: res.status, json });
          return;
        }
        onState("live");
        wait = 1000;
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let cut;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const data = block
              .split("\n")
              .filter((line) => line.startsWith("data: "))
              .map((line) => line.slice(6))
              .join("\n");
            if (data) onMessage(JSON.parse(data));
          }
        }
      } catch (e) {
        if (abort.signal.aborted) return;
      }
      onState("reconnecting");
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, 30000);
    }
  };
  run();
  return { stop: () => abort.abort() };
}

/** Least wall-clock ms between two rounds of a page's reads: a busy event costs the service at most one a second per page. */
export const REFRESH_GAP_MS = 1000;

/**
 * Runs `refresh` when asked, never two at once and never sooner than REFRESH_GAP_MS after the last
 * began: asks that come in meanwhile make one more run, so a burst of pushes costs one more round of reads.
 */
export function coalesced(refresh) {
  let running = false;
  let again = false;
  let last = -Infinity;
  const go = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    const wait = last + REFRESH_GAP_MS - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    last = performance.now();
    // Asks made before these reads begin are answered by them.
    again = false;
    try {
      await refresh();
    } finally {
      running = false;
      if (again) {
        again = false;
        go();
      }
    }
  };
  return go;
}

/**
 * A countdown to `endsAt` (ISO) from the served `now`, moving at `rate` simulated seconds per second
 * (0: a manual or paused clock stands still). Writes into the element with id `id` once a second.
 */
export function countdown(id) {
  let state = null;
  const paint = () => {
    const node = document.getElementById(id);
    if (!node) return;
    if (!state || !state.endsAt) {
      node.textContent = "—";
      return;
    }
    const simNow = Date.parse(state.now) + ((performance.now() - state.at) / 1000) * state.rate * 1000;
    const left = Math.max(0, Math.round((Date.parse(state.endsAt) - simNow) / 1000));
    const h = Math.floor(left / 3600);
    const m = Math.floor((left % 3600) / 60);
    const s = left % 60;
    node.textContent = `${h > 0 ? `${h}:` : ""}${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}${state.rate === 0 ? " (clock still)" : ""}`;
  };
  setInterval(paint, 1000);
  return {
    set(now, endsAt, rate) {
      state = { now, endsAt, rate, at: performance.now() };
      paint();
    },
  };
}

/** A sign-in form bound to sessionStorage under `storageKey`; calls `start(key)` once a key is set. */
export function signIn(storageKey, start) {
  const form = document.getElementById("signin");
  const input = document.getElementById("key");
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const key = input.value.trim();
    if (!key) return;
    sessionStorage.setItem(storageKey, key);
    input.value = "";
    start(key);
  });
  document.getElementById("signout").addEventListener("click", () => {
    sessionStorage.removeItem(storageKey);
    location.reload();
  });
  const kept = sessionStorage.getItem(storageKey);
  if (kept) start(kept);
}

/** Shows the signed-in parts of the page (or the sign-in form). */
export function signedIn(on) {
  document.body.classList.toggle("signed-in", on);
}

/** Tab buttons (`data-tab="x"`) showing the section with id `tab-x`. */
export function tabs(onShow) {
  const buttons = [...document.querySelectorAll("[data-tab]")];
  const select = (name) => {
    for (const b of buttons) b.classList.toggle("active", b.dataset.tab === name);
    for (const s of document.querySelectorAll(".tab")) s.hidden = s.id !== `tab-${name}`;
    onShow(name);
  };
  for (const b of buttons) b.addEventListener("click", () => select(b.dataset.tab));
  return { select, current: () => buttons.find((b) => b.classList.contains("active"))?.dataset.tab };
}

// The participant's view: everything from the /api/v1 reads an agent makes (their paths from ./api.js,
// which the server writes from the contract), refreshed when the live stream says something changed. The key lives in sessionStorage and travels as X-API-Key.
import { board, call, coalesced, countdown, el, facts, fill, liveStream, MAX_ROWS, refusalText, show, signedIn, signIn, table, tabs, usdc } from "./common.js";
import { AGENT_STREAM_PATH, pathOf } from "./api.js";

const STORAGE = "basecamp.participant.key";
/** Uploads whose runs the page keeps (the stream names at most this many on connecting). */
const MAX_UPLOADS = 100;

let key = null;
let status = null;
let rate = 0;
const runs = new Map();
const stale = new Set();
const refusals = [];
const timer = countdown("countdown");

const view = tabs(() => ask(true));

/** GET as this agent; a refusal comes back as an element showing its text. */
async function read(path) {
  const a = await call(key, "GET", path);
  return a.ok ? { json: a.json } : { refused: el("p", { class: "refusal" }, `${path}: ${refusalText(a)}`) };
}

function renderSummary() {
  const c = status.cadence;
  fill("who", `${status.agent} (${status.scope} key)`);
  fill("phase", c.phase);
  fill("now", status.now);
  fill("window", c.open_window ?? "—");
  fill("uploads-remaining", show(status.uploads_remaining));
  fill("paused", c.clock_paused ? "paused" : "");
  timer.set(status.now, c.phase_ends_at, c.clock_paused ? 0 : rate);
}

async function renderBoards() {
  const parts = [];
  if (status.mode === "event") {
    const schedule = await read(pathOf("get_schedule"));
    const opened = schedule.json ? schedule.json.rounds.filter((r) => Date.parse(r.open_at) <= Date.parse(status.now)) : [];
    for (const r of opened.slice(-3).reverse()) {
      const b = await read(pathOf("get_event_round_board", r.exped));
      parts.push(el("h3", {}, `Round lane: ${r.exped}`), boardOf(b, b.json && b.json.sealed ? `sealed until ${b.json.unseals_at}` : null));
    }
    if (schedule.refused) parts.push(schedule.refused);
    const practice = await read(pathOf("get_practice_board"));
    parts.push(el("h3", {}, "Practice board (display only)"), boardOf(practice));
  } else {
    const round = await read(pathOf("get_current_round"));
    if (round.json) {
      const b = await read(pathOf("get_round_board", round.json.exped));
      parts.push(el("h3", {}, `Round ${round.json.exped}`), boardOf(b));
    }
  }
  const standings = await read(pathOf("get_standings"));
  parts.push(el("h3", {}, "Tournament standings"), boardOf(standings));
  fill("boards", parts);
}

function boardOf(answer, note = null) {
  return answer.refused ?? board(answer.json, note);
}

async function renderUploads() {
  const models = await read(pathOf("get_models"));
  fill("models", models.refused ?? table(models.json.models, ["name", "id", "created_at", "auto_submit", "lane_note"]));
  for (const id of [...stale]) {
    const a = await call(key, "GET", pathOf("get_run", id));
    // A run dropped meanwhile (older than the page keeps) stays dropped.
    if (a.ok && runs.has(id)) {
      runs.delete(id);
      runs.set(id, a.json);
    }
    stale.delete(id);
  }
  const rows = [...runs.values()].reverse().map((r) => ({
    upload_id: r.upload_id,
    lane: r.lane,
    model: r.model,
    round_window: r.round_window,
    status: r.status,
    n_matched: r.n_matched,
    score: r.scores ? (r.scores.score ?? r.scores.practice_score ?? JSON.stringify(r.scores)) : r.sealed_until ? `sealed until ${r.sealed_until}` : null,
    refusal: r.error ? `${r.error.code}: ${r.error.message}` : null,
  }));
  fill("runs", table(rows, null, (r) => (r.refusal ? "refused" : null)));
  renderRefusals();
}

/** The caller's refused calls, newest first, as the live stream told them (nothing to read). */
function renderRefusals() {
  fill("refusals", refusals.length ? el("ul", {}, refusals.map((r) => el("li", { class: "refusal" }, `${r.at} ${r.method} ${r.path} → ${r.status} ${r.code}: ${r.message}`))) : el("p", { class: "empty" }, "none"));
}

async function renderStakes() {
  if (status.mode !== "event") {
    const parts = [];
    for (const m of status.models ?? []) {
      const s = await read(pathOf("get_stake", m.name ?? m.id));
      parts.push(el("h3", {}, m.name ?? m.id), s.refused ?? table(s.json.stakes));
    }
    fill("stakes", parts.length ? parts : el("p", { class: "empty" }, "no models"));
    return;
  }
  const s = await read(pathOf("get_event_staking"));
  if (s.refused) return fill("stakes", s.refused);
  const st = s.json;
  fill(
    "stakes",
    facts([
      ["staking armed", st.staking_armed],
      ["phase", st.phase],
      ["stake window open", st.stake_window_open],
      ["draft window", st.draft_window],
      ["slots", st.max_slots],
      ["minimum stake", usdc(st.min_stake_micro)],
    ]),
    st.windows.map((w) => [el("h3", {}, `Allocations: ${w.window}`), table(w.allocations, ["model", "amount_micro", "status", "drafted_at", "locked_at"])]),
  );
}

async function renderMoney() {
  if (status.mode !== "event") {
    const a = await read(pathOf("get_stake_allowance"));
    return fill("money", a.refused ?? facts(Object.entries(a.json).map(([k, v]) => [k, k.endsWith("_micro") ? usdc(v) : v])));
  }
  const s = await read(pathOf("get_event_staking"));
  if (s.refused) return fill("money", s.refused);
  const st = s.json;
  const payouts = st.windows.flatMap((w) => w.settlements.map((x) => ({ window: w.window, ...x })));
  fill(
    "money",
    facts([
      ["money event", st.money_event],
      ["stake allowance (deposit)", usdc(st.principal_micro)],
      ["settled", usdc(st.settled_micro)],
      ["net", usdc(st.net_micro)],
      ["locked", usdc(st.locked_micro)],
      ["spendable", usdc(st.spendable_micro)],
      ["balance unavailable", st.balance_unavailable],
    ]),
    el("h3", {}, "Payouts"),
    table(payouts, ["window", "model", "amount_micro", "score", "payout_micro", "settled_at", "note"]),
  );
}

async function renderCompute() {
  const credits = await read(pathOf("get_compute_credits"));
  const jobs = await read(pathOf("list_compute_jobs"));
  const machines = await read(pathOf("list_machine_sessions"));
  fill(
    "compute",
    el("h3", {}, "Budget"),
    credits.refused ?? facts(Object.entries(credits.json)),
    el("h3", {}, "Jobs"),
    jobs.refused ?? table(jobs.json.jobs),
    el("h3", {}, "Machine sessions"),
    machines.refused ?? table(machines.json.machines),
  );
}

const TABS = { boards: renderBoards, uploads: renderUploads, stakes: renderStakes, money: renderMoney, compute: renderCompute };

/** Whether the next refresh reads the shown tab again too (the status it always reads). */
let tabStale = true;

const refresh = coalesced(async () => {
  if (!key) return;
  const tab = tabStale;
  tabStale = false;
  const a = await call(key, "GET", pathOf("get_started"));
  if (!a.ok) {
    // The tab is still to read: the next refresh does.
    tabStale ||= tab;
    return fill("status-error", refusalText(a));
  }
  fill("status-error");
  status = a.json;
  renderSummary();
  if (tab) await TABS[view.current() ?? "boards"]();
});

/**
 * Asks for a refresh: the status (the clock, the phase, the pool) always; the shown tab only when
 * `tab` (the agent's own state or what every agent sees moved, or another tab was chosen), so a
 * page does not read its boards again for each other agent's upload.
 */
function ask(tab) {
  tabStale ||= tab;
  refresh();
}

function remember(ids) {
  for (const id of ids) {
    stale.add(id);
    if (!runs.has(id)) runs.set(id, { upload_id: id, status: "…" });
  }
  while (runs.size > MAX_UPLOADS) {
    const oldest = runs.keys().next().value;
    runs.delete(oldest);
    stale.delete(oldest);
  }
}

async function start(k) {
  const a = await call(k, "GET", pathOf("get_started"));
  if (!a.ok) {
    sessionStorage.removeItem(STORAGE);
    fill("signin-error", refusalText(a));
    return;
  }
  key = k;
  status = a.json;
  signedIn(true);
  renderSummary();
  liveStream(key, AGENT_STREAM_PATH, {
    onState: (s) => fill("live-state", s),
    onRefused: (r) => fill("live-state", `live updates refused: ${refusalText(r)}`),
    onMessage: (m) => {
      if (m.kind === "refusal") {
        refusals.unshift({ ...m, at: status ? status.now : "" });
        refusals.length = Math.min(refusals.length, MAX_ROWS);
        return renderRefusals();
      }
      rate = m.clock_rate;
      remember(m.uploads);
      ask(m.kind === "hello" || m.mine === true || m.shared === true || m.uploads.length > 0);
    },
  });
  view.select("boards");
}

signIn(STORAGE, start);

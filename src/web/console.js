// The organiser's console: the /sim/v1 control API and the organiser's live feed of the event log.
import { board, call, coalesced, countdown, el, facts, fill, liveStream, MAX_ROWS, refusalText, signedIn, signIn, table } from "./common.js";
import { pathOf } from "./api.js";

const STORAGE = "basecamp.organiser.key";
/** Event types shown as refusals (a run or job that failed, a model file refused). */
const REFUSED = /\.(failed|error|timeout)$/;

let key = null;
let rate = 0;
const timer = countdown("countdown");
const feed = [];

function feedRow(row) {
  return el("li", { class: row.refused ? "refusal" : null }, row.text);
}

/** Puts `rows` (oldest first) at the top of the feed in one change to the page; only the rows the feed keeps are drawn. */
function addToFeed(rows) {
  const list = document.getElementById("feed");
  const fresh = rows.slice(-MAX_ROWS).reverse();
  feed.unshift(...fresh);
  list.prepend(...fresh.map(feedRow));
  while (feed.length > MAX_ROWS) {
    feed.pop();
    list.lastElementChild.remove();
  }
}

function eventRow(e) {
  return { refused: REFUSED.test(e.type), text: `${new Date(e.t).toISOString()} #${e.seq} ${e.type} ${JSON.stringify(e.payload)}` };
}

function renderClock(c) {
  fill("phase", c.cadence.phase);
  fill("window", c.cadence.open_window ?? "—");
  fill("now", c.now);
  fill("clock-mode", c.mode === "realtime" ? `realtime ×${c.speed}` : "manual");
  fill("paused", c.paused ? "paused" : "");
  timer.set(c.now, c.cadence.phase_ends_at, c.paused ? 0 : rate);
}

function renderTallies(tallies) {
  const rows = tallies.map((t) => ({
    agent: t.agent,
    "round uploads": t.round_uploads,
    "pool left": t.uploads_remaining,
    practice: t.practice_uploads,
    "runs ok": t.runs_finalised,
    "runs failed": t.runs_failed,
    jobs: t.compute_jobs,
    machines: t.machine_sessions,
    "compute $": (t.compute_cents / 100).toFixed(2),
  }));
  fill("agents", table(rows));
}

function boardOf(title, b) {
  return [el("h3", {}, title), board(b, b.sealed ? `sealed until ${b.unseals_at}` : null)];
}

/** The scoring settings as last read (they change only with a `scoring.changed` event). */
let settings = {};

/** The console's views a refresh reads again besides the clock (which it always reads). */
const VIEWS = ["boards", "stakes", "faults", "settings"];
const stale = new Set(VIEWS);

/** Which views an event may change: a run's end or a round's move the boards, stakes the stakes, and so on. */
function viewsOf(type) {
  if (/^(run\.(finalised|failed|removed|cancelled)|round\.|final\.|submission\.)/.test(type)) return ["boards", "stakes"];
  if (/^stakes?\./.test(type)) return ["stakes"];
  if (type === "faults.changed") return ["faults"];
  if (type === "scoring.changed") return ["boards", "settings"];
  return [];
}

function renderSettings(c) {
  fill(
    "settings",
    facts([
      ["clock", c.mode === "realtime" ? `realtime ×${c.speed}${c.paused ? " (paused)" : ""}` : "manual"],
      ["weights", settings.weights],
      ["clip", settings.clip],
      ["aggregate", settings.aggregate],
      ["rank metric", settings.rank_metric],
    ]),
  );
}

const READS = {
  boards: async () => {
    const boards = await call(key, "GET", "/sim/v1/boards");
    if (!boards.ok) return fill("boards", el("p", { class: "refusal" }, refusalText(boards)));
    const b = boards.json;
    fill("boards", boardOf("Standings", b.standings), b.rounds.map((r) => boardOf(`Round ${r.window ?? r.exped}`, r)), b.practice ? boardOf("Practice board", b.practice) : null);
  },
  stakes: async () => {
    const stakes = await call(key, "GET", "/sim/v1/stakes");
    fill("stakes", stakes.ok ? (stakes.json ? table(stakes.json.rows) : el("p", { class: "empty" }, "nobody stakes")) : el("p", { class: "refusal" }, refusalText(stakes)));
  },
  faults: async () => {
    const faults = await call(key, "GET", "/sim/v1/faults");
    fill("faults", faults.ok ? facts(Object.entries(faults.json)) : el("p", { class: "refusal" }, refusalText(faults)));
  },
  settings: async () => {
    const scoring = await call(key, "GET", pathOf("explain_scoring"));
    settings = scoring.ok ? scoring.json : {};
  },
};

/** Reads the clock, then the views an event or a control made stale (each at most once a round). */
const refresh = coalesced(async () => {
  const views = [...stale];
  stale.clear();
  const clock = await call(key, "GET", "/sim/v1/clock");
  if (!clock.ok) {
    // Still to read: the next refresh tries again.
    for (const v of views) stale.add(v);
    return fill("control-error", refusalText(clock));
  }
  renderClock(clock.json);
  await Promise.all(views.map((v) => READS[v]()));
  renderSettings(clock.json);
});

/** Asks for a refresh that reads these views again too. */
function ask(views) {
  for (const v of views) stale.add(v);
  refresh();
}

/** A control call: its refusal is shown as the API gave it; the stream brings the change. */
async function control(method, path, body) {
  const a = await call(key, method, path, body);
  fill("control-error", a.ok ? "" : refusalText(a));
  if (a.ok) ask(VIEWS);
}

function wireControls() {
  document.getElementById("pause").addEventListener("click", () => control("POST", "/sim/v1/clock/pause"));
  document.getElementById("resume").addEventListener("click", () => control("POST", "/sim/v1/clock/resume"));
  document.getElementById("next-phase").addEventListener("click", () => control("POST", "/sim/v1/clock/advance", { to: "next_phase" }));
  document.getElementById("advance").addEventListener("click", () =>
    control("POST", "/sim/v1/clock/advance", { seconds: Number(document.getElementById("advance-seconds").value) }),
  );
  const fault = (on) => {
    const name = document.getElementById("fault").value;
    const wide = name === "diagnostics_maintenance" || name === "compute_paused";
    const body = wide ? { fault: name, on } : { fault: name, round: Number(document.getElementById("fault-round").value), on };
    control("POST", "/sim/v1/faults", body);
  };
  document.getElementById("fault-on").addEventListener("click", () => fault(true));
  document.getElementById("fault-off").addEventListener("click", () => fault(false));
}

async function start(k) {
  const a = await call(k, "GET", "/sim/v1/clock");
  if (!a.ok) {
    sessionStorage.removeItem(STORAGE);
    fill("signin-error", refusalText(a));
    return;
  }
  key = k;
  signedIn(true);
  renderClock(a.json);
  wireControls();
  liveStream(key, "/sim/v1/live", {
    onState: (s) => fill("live-state", s),
    onRefused: (r) => fill("live-state", `live feed refused: ${refusalText(r)}`),
    onMessage: (m) => {
      if (m.kind === "refusal") {
        addToFeed([{ refused: true, text: `refused ${m.agent ?? "?"}: ${m.method} ${m.path} → ${m.status} ${m.code}: ${m.message}` }]);
        return;
      }
      rate = m.clock_rate;
      addToFeed(m.events.map(eventRow));
      renderTallies(m.tallies);
      ask(m.events.flatMap((e) => viewsOf(e.type)));
    },
  });
  ask(VIEWS);
}

signIn(STORAGE, start);

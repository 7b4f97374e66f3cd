/**
 * The error catalogue: every refusal the service can give, with the spec's status and exact text.
 * `{x}` placeholders are filled from the params passed to `refuse`. Codes the spec names
 * (`cadence_not_open`, `predictions_already_filed`) are kept; the others are Basecamp's own
 * snake_case names, documented in README. Faces render a ServiceError; none invents its own.
 */
export const catalogue = {
  // General
  missing_api_key: { status: 401, text: "Missing API key" },
  invalid_api_key: { status: 401, text: "Invalid API key" },
  authorization_header_refused: {
    status: 401,
    text: "The Authorization header is not accepted on /api/v1; send the key in X-API-Key.",
  },
  key_in_query_refused: {
    status: 401,
    text: "API keys in the query string are refused; send the key in X-API-Key.",
  },
  email_not_verified: { status: 403, text: "E-mail not verified" },
  scope_restricted: { status: 403, text: "Scope restricted: this {scope} key is confined to its own product and cannot use {what}." },
  insufficient_scope: { status: 403, text: "Insufficient scope: {what} needs {needed} key." },
  account_blocked: { status: 403, text: "Account blocked" },
  llm_scope_only: { status: 403, text: "This key is LLM-scoped and cannot call {what}." },
  organiser_key_required: { status: 403, text: "This needs the scenario's organiser key." },
  not_found: { status: 404, text: "Not found: {what}" },
  method_not_allowed: { status: 405, text: "Method {method} is not allowed on {path}; allowed: {allowed}." },
  payload_too_large: { status: 413, text: "Payload too large: the limit is {limit} bytes." },
  validation_error: { status: 422, text: "{message}" },
  rate_limited: {
    status: 429,
    text: "Rate limit exceeded: at most {ceiling} requests per {window_seconds} s per key and endpoint.",
  },
  auth_rate_limited: {
    status: 429,
    text: "Rate limit exceeded: at most {ceiling} failed authentications per {window_seconds} s per client address.",
  },
  live_streams_exhausted: { status: 429, text: "At most {limit} live streams may be open per key; close one first." },
  lane_saturated: { status: 503, text: "Upload lane saturated; retry after 5 seconds." },
  upload_body_too_slow: {
    status: 408,
    text: "Upload body too slow: fewer than {min_bytes} bytes arrived in {seconds} s; the upload was dropped.",
  },
  internal_error: { status: 500, text: "Internal error: {message}" },
  mcp_path_refused: {
    status: 400,
    text: "{argument}: file paths are not accepted over HTTP; send the file's contents in {contents} (base64).",
  },

  // Data download
  invalid_split: { status: 400, text: "Invalid split: {split}" },
  dataset_not_found: { status: 404, text: "Dataset not found: futures/{split}" },
  live_not_available: { status: 503, text: "Live dataset not available" },
  live_empty: { status: 503, text: "Live dataset is empty" },
  hackathon_not_started: { status: 403, text: "Your hackathon has not started yet" },
  cadence_not_open: { status: 409, text: "No paid round is fully open for intake." },
  benchmark_withheld: {
    status: 404,
    text: "Benchmark file not found: futures/{split}_benchmark_models (event keys get only the train benchmark file)",
  },

  // Model
  model_name_unknown: { status: 404, text: "No model '{name}'. Create it first with create_model." },
  model_label_unknown: { status: 404, text: "No model is named '{label}'" },
  model_not_found: { status: 404, text: "Model not found" },
  model_name_taken: { status: 409, text: "A model named '{name}' already exists." },

  // Tournament submit
  duplicate_instruments: {
    status: 400,
    text: "Duplicate instrument_id values in predictions ({n} duplicates).",
  },
  missing_instruments: { status: 400, text: "Missing predictions for {n} instruments." },
  unknown_instruments: {
    status: 400,
    text: "Submission contains {n} instrument_id values not in the current round.",
  },
  prediction_out_of_range: {
    status: 422,
    text: "Target '{name}': prediction {score} is outside the allowed range [0, 1].",
  },
  prediction_not_finite: {
    status: 422,
    text: "prediction must be a finite number (no NaN or Infinity)",
  },
  submission_final: { status: 409, text: "Submission already exists for this model and exped." },
  submission_window_closed: {
    status: 409,
    text: "The submission window for {exped} closed at {close_at}; no entry was recorded.",
  },
  round_not_found: { status: 404, text: "Round not found" },
  no_active_round: { status: 404, text: "No active round" },

  // Event submit
  upload_limit_reached: {
    status: 409,
    text: "Upload limit reached: {limit} uploads per agent, counted across all your models and every round.",
  },
  no_id_overlap: { status: 400, text: "None of your predicted ids overlapped the validation set." },
  no_id_overlap_practice: {
    status: 400,
    text: "None of your predicted ids overlapped the validation set. (0 of {n} predicted ids matched.)",
  },
  predictions_filed_by_you: {
    status: 409,
    text: "These predictions are already filed in this event by your model '{name}'.",
  },
  predictions_already_filed: {
    status: 409,
    text: "Identical predictions are already filed in this event by another participant.",
  },
  run_scoring_different_file: { status: 409, text: "A run for this model is already scoring a DIFFERENT predictions file" },
  batch_empty: { status: 400, text: "A batch must declare at least one item." },
  batch_too_large: { status: 400, text: "A batch may declare at most 25 items ({n} given)." },
  upload_already_finalized: { status: 409, text: "Upload {id} was already finalized." },
  upload_not_found: { status: 404, text: "Upload {id} not found" },
  hackathon_ended: { status: 403, text: "This hackathon has ended" },
  diagnostics_maintenance: { status: 503, text: "The practice board is under maintenance; uploads to it resume when it ends." },

  // Model file (event lanes); texts beyond the spec's table are Basecamp's own
  model_pkl_required: { status: 400, text: "A model .pkl file is required for hackathon submissions." },
  model_pkl_not_pkl: { status: 400, text: "The model file must be a .pkl file." },
  model_file_too_large: { status: 413, text: "Model file too large: the limit is {limit} bytes." },
  predictions_file_too_large: { status: 413, text: "File too large: the limit is {limit} bytes." },
  predictions_too_many_rows: { status: 413, text: "File too large: it holds {rows} rows; the limit is {limit} rows." },
  predictions_too_many_columns: { status: 413, text: "File too large: it holds {columns} columns; the limit is {limit} columns." },
  predictions_too_much_data: {
    status: 413,
    text: "File too large: its columns hold {size} bytes uncompressed; the limit is {limit} bytes.",
  },
  upload_check_memory: { status: 413, text: "File too large: reading it needs more memory than the limit of {limit} MiB." },
  upload_check_time: { status: 413, text: "File too large: reading it takes longer than the limit of {limit} seconds." },
  model_pkl_sha256_invalid: {
    status: 400,
    text: "model_pkl_sha256 must be a 64-character hex SHA-256 digest.",
  },
  model_pkl_sha256_mismatch: {
    status: 400,
    text: "model_pkl_sha256 {declared} does not match the uploaded file, whose SHA-256 is {actual}.",
  },
  python_version_invalid: { status: 400, text: "python_version must be 'major.minor'" },
  python_version_unsupported: {
    status: 400,
    text: "python_version {version} is not accepted; accepted versions: {accepted}.",
  },
  model_shape_refused: { status: 400, text: "Everesteer runs one model shape: a cloudpickled callable." },
  model_pickle_invalid: { status: 400, text: "The model file is not a readable pickle: {reason}." },
  model_pickle_torch: {
    status: 400,
    text: "The model pickle references torch ({global}); torch opcodes are not accepted.",
  },
  model_file_unsafe: { status: 400, text: "The model file references {global}, which a model file may not use." },

  // Model upload (the tournament's auto-submit lane); Basecamp's own text
  model_upload_not_found: {
    status: 404,
    text: "No model file has been uploaded for model '{name}'. Upload one with upload_model.",
  },

  // Predictions file (event lanes); Basecamp's own texts
  predictions_file_type: {
    status: 400,
    text: "The predictions file must be a .csv or .parquet file ('{filename}' given).",
  },
  predictions_file_unreadable: { status: 400, text: "The predictions file is not readable {format}: {reason}." },
  predictions_file_empty: { status: 400, text: "The predictions file has no rows." },
  predictions_column_missing: { status: 400, text: "The predictions file has no '{column}' column." },
  predictions_column_type: {
    status: 400,
    text: "The predictions file's '{column}' column holds {type} values, not numbers.",
  },
  predictions_value_malformed: {
    status: 400,
    text: "The predictions file is malformed at row {row}, column '{column}': {problem}.",
  },
  predictions_duplicate_id: { status: 400, text: "The predictions file lists id '{id}' more than once." },
  predictions_value_out_of_range: {
    status: 400,
    text: "The predictions file has prediction {value} at row {row}; predictions must be finite numbers in [0, 1].",
  },

  // Staking (event); the spec's texts, and Basecamp's own for the public facts' reason codes
  not_event_participant: { status: 403, text: "Event staking is only available to event participants." },
  no_staking_capability: { status: 403, text: "Your enrollment does not carry the event-staking capability." },
  no_staking_configured: { status: 403, text: "This event has no staking configured" },
  staking_not_armed: { status: 409, text: "This event's staking contract instance is not armed yet." },
  no_submission_for_window: { status: 422, text: "Model '{model_id}' has no submission for {window}." },
  below_min_stake: { status: 400, text: "The minimum stake on a model is {amount}." },
  event_deadline_passed: {
    status: 409,
    text: "This event's deadline has passed, so new allocations are closed; locked work still settles and claims.",
  },
  allocation_locked: {
    status: 409,
    text: "allocation ({model}, {window}) is locked (locked_at={locked_at}); drafts cannot overwrite a lock",
  },
  balance_unavailable: { status: 503, text: "Could not read your event deposit balance. Try again." },
  stake_window_closed: {
    status: 409,
    text: "No stake window is open ({phase}): allocations are drafted while a round is open, for that round.",
  },
  window_mismatch: { status: 409, text: "Allocations are being drafted for {draft_window}, not {window}." },
  slot_limit: { status: 409, text: "At most {max_slots} models can be staked in {window}." },
  insufficient_balance: {
    status: 409,
    text: "Insufficient balance: {amount} micro asked, {spendable} micro spendable (balance minus locks not yet settled and your other drafts).",
  },
  allocation_not_found: { status: 404, text: "No draft allocation for model '{model}' in {window}." },

  // Final selection (a held-out final window); Basecamp's own texts
  selection_window_closed: {
    status: 409,
    text: "The final selection window closed at {closed_at}; the selection made before then stands.",
  },
  no_final_window: { status: 409, text: "This event has no final window: its sealed rounds are its boards." },
  too_many_selections: { status: 400, text: "At most {max_selections} models can be selected ({n} given)." },
  duplicate_selection: { status: 400, text: "Model '{model}' is selected more than once." },

  // Staking (tournament). Texts from the spec's table; `no_round_to_stake`'s text, the legacy
  // 410 texts and every code but `over_allowance` and `round_full` are Basecamp's own.
  wallet_no_passkey: { status: 409, text: "Your wallet has no passkey." },
  over_allowance: { status: 409, text: "stake of {amount} micro exceeds your stake limit of {limit} micro" },
  round_full: { status: 409, text: "This round can't take that amount right now." },
  no_round_to_stake: {
    status: 409,
    text: "No round is open to stake on; stakes are taken while a round is open and lock at its close.",
  },
  benchmark_not_stakeable: { status: 403, text: "Cannot stake on a benchmark model" },
  model_not_owned: { status: 403, text: "Model does not belong to this agent" },
  no_stake_policy: { status: 404, text: "No stake policy set for this model" },
  stake_principal_invalid: { status: 400, text: "Stake principal must be a finite dollar amount" },
  chain_rpc_unavailable: { status: 503, text: "Chain RPC unavailable" },
  forwarder_path_retired: {
    status: 410,
    text: "{tool} used the deposit-forwarder path, which is retired on this real-money deployment; stake with stake_from_wallet.",
  },
  no_deposit_address: {
    status: 410,
    text: "{tool}: this real-money deployment has no deposit address or forwarder; stake with stake_from_wallet.",
  },

  // Compute (hosted training for events). The not-started text is the spec's; the rest are Basecamp's own.
  compute_not_live: { status: 403, text: "Hosted compute is not live: the event is in its {phase} phase." },
  compute_no_budget: { status: 403, text: "Hosted compute is not available: this event has no compute budget." },
  compute_paused: { status: 503, text: "Hosted compute is paused by an administrator; launches resume when it is switched back on." },
  train_seed_top_level: { status: 400, text: "seed is not a top-level train field: put it in params (params.seed)." },
  train_unknown_fields: { status: 400, text: "Unknown train fields: {fields}; allowed: {allowed}." },
  custom_model_fn_unsafe: { status: 400, text: "custom_model_fn may not use {name}: {why}." },
  custom_model_fn_unchecked: { status: 503, text: "custom_model_fn cannot be checked on this deployment: {reason}" },
  train_field_invalid: { status: 400, text: "{field}: {message}" },
  train_model_unsupported: {
    status: 400,
    text: "model '{model}' is not trained here: {reason}. This deployment trains {trained}.",
  },
  compute_insufficient_credit: {
    status: 409,
    text: "Not enough compute credit: this job holds {hold_cents} cents and {available_cents} cents are available.",
  },
  job_not_found: { status: 404, text: "Job {job_id} not found" },
  job_already_finished: { status: 409, text: "Job {job_id} already ended ({status}); only a queued or running job can be cancelled." },
  job_model_not_ready: { status: 409, text: "Job {job_id} is {status}: a model is downloadable once the job has completed." },
  job_model_absent: { status: 404, text: "Job {job_id} has no model artifact: {reason}" },

  // The hosted agent's machine (Basecamp's own texts; the spec names only its limits).
  machine_not_found: { status: 404, text: "Machine {machine_id} not found" },
  machine_already_running: { status: 409, text: "Machine {machine_id} is already running; stop it before starting another." },
  machine_daily_max: {
    status: 409,
    text: "The hosted machine has run its daily maximum of {hours} h on {day}; it can start again at {next}.",
  },
  machine_no_credit: {
    status: 409,
    text: "Not enough compute credit to start a machine: {available_cents} cents are available and its first minute on {tier} costs {minute_cents} cents.",
  },
  machine_stopped: {
    status: 410,
    text: "Machine {machine_id} stopped at {stopped_at} ({reason}); its files are gone. Its records stay in list_machine_sessions.",
  },
  machine_command_invalid: { status: 400, text: "command: {message}" },
  machine_command_cap: {
    status: 409,
    text: "Machine {machine_id} has run {limit} commands, the most one session runs; stop it and start another to run more.",
  },
  machine_file_path_invalid: { status: 400, text: "{path}: a machine file path is relative and stays inside the workspace ({why})." },
  machine_file_not_found: { status: 404, text: "No file {path} on machine {machine_id}" },
  machine_file_too_large: { status: 413, text: "{path} is {size} bytes; a machine file read is at most {limit} bytes." },

  // Organiser clock control (/sim/v1)
  clock_backwards: { status: 422, text: "The clock never moves backwards: {until} is before now ({now})." },
  clock_no_next_phase: { status: 422, text: "The season is in its last phase ({phase}) and every round has settled; there is no next phase to advance to." },
  clock_not_realtime: { status: 409, text: "Only a realtime clock can be paused or resumed; a manual clock moves only when advanced." },
  clock_control_unavailable: { status: 409, text: "This service's clock is not under organiser control." },
} as const satisfies Record<string, { status: number; text: string }>;

export type ErrorCode = keyof typeof catalogue;

export type ErrorParams = Record<string, string | number>;

/** A refusal from the catalogue. `extra` lands beside code and message in the rendered detail. */
export class ServiceError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ServiceError";
    this.status = catalogue[code].status;
  }

  /** The body every face renders: `{"detail": {"code", "message", ...extra}}`. */
  get detail(): Record<string, unknown> {
    return { code: this.code, message: this.message, ...this.extra };
  }
}

export function fill(template: string, params: ErrorParams): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in params ? String(params[key]) : whole,
  );
}

/** Builds the catalogue entry `code` with its `{x}` filled in. */
export function refuse(
  code: ErrorCode,
  params: ErrorParams = {},
  options: { extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
): ServiceError {
  return new ServiceError(code, fill(catalogue[code].text, params), options.extra, options.headers);
}

/** Any thrown value as a ServiceError: refusals as they are, anything else (a bug) logged and turned into `internal_error`. */
export function asServiceError(e: unknown, log: (line: string) => void): ServiceError {
  if (e instanceof ServiceError) return e;
  log(`internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  return refuse("internal_error", { message: e instanceof Error ? e.message : String(e) });
}

/**
 * Whether `check` passes without a refusal: an orientation read (`can_stake`, `hosted_train_funded`)
 * asks the operation's own checks rather than restating them. Anything but a refusal propagates.
 */
export function passes(check: () => unknown): boolean {
  // A refusal here is dropped unread, so none takes a stack trace (most of an error's cost, paid on
  // every status read). Anything else is a bug: the check (which only reads) is asked again with
  // stacks on, so the bug propagates with its own.
  const stackFrames = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    check();
    return true;
  } catch (e) {
    if (e instanceof ServiceError) return false;
    Error.stackTraceLimit = stackFrames;
    check();
    throw e;
  } finally {
    Error.stackTraceLimit = stackFrames;
  }
}

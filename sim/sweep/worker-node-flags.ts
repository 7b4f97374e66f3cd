/**
 * Node's flags for a sweep-worker (both pools start it with them). V8 optimises a function once
 * it has run for its interrupt budget; at Node 20's default (66 KiB of bytecode executed), a
 * worker whose cells each run for a fraction of a second keeps compiling and deoptimising for
 * most of the sweep: on the 24-cell grid of the sweep bench, 6 to 46 TurboFan compiles and up to
 * 600 deoptimisations a cell, 0.03 s a cell of TurboFan on its background threads beside a cell's
 * 0.11 s on the main thread. That work runs on the idle core with one worker and takes a core from
 * the other cell with two. Sixteen times the budget optimises what stays hot once its feedback is
 * complete: 0 to 15 compiles a cell, almost no deoptimisations, 0.006 s of TurboFan, the same
 * main-thread CPU (`npm run bench -- cell-cpu`). The local pool uses them only when it has a
 * worker for every core: with a core idle, the early optimised code made a worker faster. A flag
 * of V8's, which Node refuses to start with if its V8 has no such flag; tiering changes when code
 * is optimised, never what a cell computes.
 */
export const SWEEP_WORKER_NODE_FLAGS = [`--interrupt-budget=${16 * 66 * 1024}`];

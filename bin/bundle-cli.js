// The build's last step (`npm run build`): the CLI's main-thread code as one ES module,
// dist/bundle/cli.js, with a chunk per lazily loaded command, made by esbuild from the compiled
// tree (dist/src, dist/sim). Node loads it in about a third of the time of the ~600 modules it
// replaces (a model file's backtest: about 0.3 s of module loading before its dataset is read).
//
// The compiled tree stays whole beside it, and the bundle points into it: each `import.meta.url`
// of a compiled file is rewritten to that file's own URL, so the Python helpers, the web app's
// files, the worker-thread entries (which run the compiled modules, as before) and the Strategy
// API resolve where they always did. Left outside the bundle: native and wasm modules
// (better-sqlite3, parquet-wasm), tsx's loader, the packages that only other commands load, and
// what a user's own strategy module shares with the engine through the Strategy API (which it
// imports compiled, unbundled): zod, and the module of StrategyFailure, which the engine tells
// apart by its class.
import { readFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = join(root, "dist", "bundle");
const EXTERNAL = ["better-sqlite3", "parquet-wasm", "tsx", "zod", "ink", "ink-*", "react", "hono", "@hono/*", "@modelcontextprotocol/*"];
/** Compiled modules the bundle imports as they are, for the Strategy API's sake (see above). */
const SHARED = [join(root, "dist", "sim", "agents", "strategy.js")];

await build({
  entryPoints: [join(root, "dist", "src", "cli.js")],
  outdir: out,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  logLevel: "warning",
  // The CommonJS packages bundled (commander) call require for Node's own modules.
  banner: { js: 'import { createRequire as bundleRequire } from "node:module"; const require = bundleRequire(import.meta.url);' },
  plugins: [
    {
      name: "compiled-files",
      setup(build) {
        build.onResolve({ filter: /^\.\.?\// }, (args) => {
          const path = resolve(args.resolveDir, args.path);
          return SHARED.includes(path) ? { path: relative(out, path).split("\\").join("/"), external: true } : undefined;
        });
        build.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, async (args) => {
          const text = await readFile(args.path, "utf8");
          if (!text.includes("import.meta.url")) return undefined;
          // Every chunk sits in `out`, so the file's path relative to it names the file from any chunk.
          const own = `new URL(${JSON.stringify(relative(out, args.path).split("\\").join("/"))}, import.meta.url).href`;
          return { contents: text.replaceAll("import.meta.url", own), loader: "js" };
        });
      },
    },
  ],
});

import type { Hono } from "hono";
import { refuse } from "../domain/errors.js";
import type { LiveFeed } from "../service/live/live-feed.js";
import type { Service } from "../service/service.js";
import { AGENT_STREAM_PATH, agentStream, ORGANISER_STREAM_PATH, organiserStream } from "./live-stream.js";
import { renderError } from "./render.js";
import { webApiModule } from "./web-api.js";
import { assetResponse, loadWebAssets } from "./web-assets.js";
import { viewPage } from "./web-pages.js";

/** The pages: the participant's view at `/`, the organiser's console at `/console` (each written into page.html). */
const PAGES: Record<string, string> = { "/": "index.html", "/console": "console.html" };

/**
 * The web app on the API's port: its pages and assets (read once from src/web), and the live
 * streams its pages read. A clock the organiser moves logs nothing, so the streams are told.
 */
export function registerWebApp(app: Hono, service: Service, live: LiveFeed): void {
  const assets = loadWebAssets().set("api.js", webApiModule());
  for (const [path, name] of Object.entries(PAGES)) {
    const page = viewPage(assets, name);
    app.get(path, () => assetResponse(page));
  }
  app.get("/web/:name", (c) => {
    const asset = assets.get(c.req.param("name"));
    return asset ? assetResponse(asset) : renderError(refuse("not_found", { what: `GET ${c.req.path}` }));
  });
  app.get(AGENT_STREAM_PATH, (c) => agentStream(c, service, live));
  app.get(ORGANISER_STREAM_PATH, (c) => organiserStream(c, service, live));
  app.use("/sim/v1/clock/*", async (c, next) => {
    await next();
    if (c.res.ok) live.changed();
  });
}

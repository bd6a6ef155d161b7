// engine-start.js: starts the engine as early as the page can (a module script in the page's
// head, async), before the page's own modules (app.js and what it imports) have loaded, so
// Python's start overlaps them. engine.js adopts this link and replays what the engine said
// meanwhile, in order; when engine.js ran first, it opened its own link and this does nothing.
import { startEarly } from "./connect.js";

startEarly();

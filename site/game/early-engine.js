// early-engine.js: the game page's early start of its engine (a module script in the page's
// head, async; see engine/engine-start.js), except on a friend's page (an invitation in the
// address): the host's engine decides everything there, and a friend's phone would otherwise
// download and boot Python for nothing.
import { startEarly } from "../engine/connect.js";
import { joinCode } from "./friends/address.js";

if (!joinCode(location)) startEarly();

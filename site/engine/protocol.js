// protocol.js: the messages between the page and the engine worker, named in one place.
//
// The table itself is spades/bridge/protocol.py: the build writes it as engine/messages.js
// (one source for both sides; tests/bridge/test_protocol.py checks the written module).
// Every request is {id, fn, args}; the worker runs spades.bridge.handle({fn, args}) and
// answers {type: "reply", id, ok, result | error}. The table below names each message
// with the shape of its arguments and of its result, its deadline and
// whether it is play or analysis. "state" is what seat 0 may see
// (spades.bridge.state); "event" is one computer player's action.
//
// `changes: true` marks messages that change the session: their replies also carry
// `save`, the session as text for localStorage (spades.bridge.CHANGES).
import { PROTOCOL } from "./messages.js";

/** @type {Record<string, {args: string, result: string, changes: boolean, deadline: string, kind: string}>} */
export const MESSAGES = PROTOCOL.messages;

/** How long the page waits for each kind of answer (the table's `deadline` names one), in ms. */
export const DEADLINE_MS = PROTOCOL.deadline_ms;

/** Message names as constants, so a typo is a load-time error, not a silent "unknown_message". */
export const MSG = Object.freeze(Object.fromEntries(Object.keys(MESSAGES).map((name) => [name.toUpperCase(), name])));

/** Progress stages the worker reports while booting, in order. */
export const BOOT_STAGES = Object.freeze(["runtime", "engine", "ready"]);

/** Error code of a request the engine could not answer because it failed to start. */
export const BOOT_ERROR = "boot";

// protocol.js: the messages between the page and the engine worker, named in one place.
//
// The table itself is spades/bridge/protocol.py: the build writes it as engine/messages.js
// (one source for both sides; tests/bridge/test_protocol.py checks the written module).
// Every request is {id, fn, args}; the worker runs spades.bridge.handle({fn, args}) for the
// page's own session and answers {type: "reply", id, ok, result | error}. The table below names
// each message with the shape of its arguments and of its result, its deadline, whether it is
// play or analysis, and whether the engine may answer it in slices. "state" is what seat 0 may
// see (spades.bridge.state); "event" is one computer player's action.
//
// `changes: true` marks messages that change the session: their replies also carry
// `save`, the session as text for localStorage (spades.bridge.CHANGES).
import { PROTOCOL } from "./messages.js";

/** @type {Record<string, {args: string, result: string, changes: boolean, deadline: string, kind: string, sliced: boolean}>} */
export const MESSAGES = PROTOCOL.messages;

/** How long the page waits for each kind of answer (the table's `deadline` names one), in ms. */
export const DEADLINE_MS = PROTOCOL.deadline_ms;

/** The `kind` of interactive play (answered before analysis where both wait). */
export const PLAY_KIND = PROTOCOL.play_kind;

/** A sliced message's budget: the argument's name and the seconds the engine accepts. */
export const BUDGET = PROTOCOL.budget;

/** Message names as constants, so a typo is a load-time error, not a silent "unknown_message". */
export const MSG = Object.freeze(Object.fromEntries(Object.keys(MESSAGES).map((name) => [name.toUpperCase(), name])));

/** How long the engine may take to answer the message `fn` once it has started on it (ms). */
export function deadlineOf(fn) {
  return Object.hasOwn(MESSAGES, fn) ? DEADLINE_MS[MESSAGES[fn].deadline] : DEADLINE_MS.request;
}

/** Progress stages the worker reports while booting, in order. */
export const BOOT_STAGES = Object.freeze(["runtime", "engine", "ready"]);

/** Error code of a request the engine could not answer because it failed to start. */
export const BOOT_ERROR = "boot";

/**
 * The link's own messages, beside requests and replies (engine.js lists them all):
 *   page -> worker  {type: HOLD, lock}  the page holds the Web Lock `lock` while it lives
 *                   {type: BYE}         the page is leaving (its session ends)
 *   worker -> page  {type: "watch", what: RUN, ms, id}  the engine starts on a message (any
 *                   page's): it may be silent for up to `ms`; `id` is the request's when it
 *                   is this page's, else null
 *                   {type: LIFE, lock}  the Web Lock the worker holds while it lives: the page
 *                   asks for it, and is granted it once the worker has ended (pages.js)
 */
export const LINK = Object.freeze({ HOLD: "hold", BYE: "bye", RUN: "run", LIFE: "life" });

// protocol.js: the messages between the page and the engine worker, named in one place.
//
// Every request is {id, fn, args}; the worker runs spades.bridge.handle({fn, args}) and
// answers {type: "reply", id, ok, result | error}. The table below names each message
// (the keys of spades.bridge.HANDLERS: tests/test_protocol.py checks both directions)
// with the shape of its arguments and of its result. "state" is what seat 0 may see
// (spades.bridge.state); "event" is one computer player's action.
//
// `changes: true` marks messages that change the session: their replies also carry
// `save`, the session as text for localStorage (spades.bridge.CHANGES).

/** @type {Record<string, {args: string, result: string, changes: boolean}>} */
export const MESSAGES = Object.freeze({
  hello: { args: "{}", result: "{version, variant, levels, presets}", changes: false },
  ping: { args: "{}", result: "{pong: true, version, variant}", changes: false },
  new_match: { args: "{seed?, partner?, opponents?, rules?}", result: "state", changes: true },
  rules: { args: "{rules}", result: "{rules, text}", changes: false },
  resume: { args: "{save}", result: "state", changes: true },
  bid: { args: "{n}", result: "state", changes: true },
  look: { args: "{}", result: "state", changes: true },
  play: { args: "{card}", result: "state", changes: true },
  why_not: { args: "{card}", result: "{legal: bool, code: string|null}", changes: false },
  bot_step: { args: "{}", result: "{event, state}", changes: true },
  run_bots: { args: "{}", result: "{events, state}", changes: true },
  hint: { args: "{level?}", result: "{action: {bid}|{card}, level, reason: {code, params}}", changes: false },
  why: { args: "{seat}", result: "{seat, action: {bid}|{card}|null, reason: {code, params}|null}", changes: false },
  undo: { args: "{}", result: "state", changes: true },
  save: { args: "{}", result: "{save}", changes: false },
  hand: { args: "{number}", result: "hand record", changes: false },
  export: { args: "{number}", result: "{text, record}", changes: false },
  review: { args: "{text}", result: "{source, hands, rules, order}", changes: false },
  analyse: { args: "{text, hand?, step, budget?} | {position, budget?}", result: "{seat, action, best, cost_tricks, cost_points, finished, values, step, total}", changes: false },
  bid_advice: { args: "{text, hand?, step}", result: "{seat, action, best, level, legal, reason}", changes: false },
  dd_table: { args: "{text, hand?, budget?}", result: "{table, leader, bids}", changes: false },
});

/** Message names as constants, so a typo is a load-time error, not a silent "unknown_message". */
export const MSG = Object.freeze(Object.fromEntries(Object.keys(MESSAGES).map((name) => [name.toUpperCase(), name])));

/** Progress stages the worker reports while booting, in order. */
export const BOOT_STAGES = Object.freeze(["runtime", "engine", "ready"]);

/** Error code of a request the engine could not answer because it failed to start. */
export const BOOT_ERROR = "boot";

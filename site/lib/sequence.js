// sequence.js: cancellable sequences of engine calls, for the controller.
//
// A flow (the bots' turns, the player's card and its animation) belongs to the sequence
// that was current when it started. `restart()` begins a new sequence (a new match, a
// resume, an undo); every await of an older flow then throws `Superseded`, which stops
// that flow quietly at its entry point. So no flow ever acts on a match that has been
// replaced, and no counter has to be compared after each await.

/** Thrown at an await of a flow whose sequence was replaced. */
export class Superseded extends Error {}

const sleep = (ms) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

/**
 * Sequences over `engine` (engine.js). `refuse(err)` shows an engine refusal to the
 * player (used by `ask`).
 */
export function createSequences(engine, refuse) {
  let epoch = 0;

  function handle(n) {
    const live = () => n === epoch;
    const check = (value) => {
      if (!live()) throw new Superseded();
      return value;
    };
    const run = {
      live,
      /** Wait for `promise`, then stop here if the sequence was replaced meanwhile. */
      wait: (promise) => Promise.resolve(promise).then(check, (err) => { check(); throw err; }),
      sleep: (ms) => run.wait(sleep(ms)),
      /** Ask the engine; a refusal rejects with its coded error. */
      call: (name, args = {}) => run.wait(engine.call(name, args)),
      /** Ask the engine; a refusal is shown to the player and answers null. */
      ask: (name, args = {}) => run.call(name, args).catch((err) => {
        if (err instanceof Superseded) throw err;
        refuse(err);
        return null;
      }),
      /** Ask the engine; a refusal answers null, unseen. */
      query: (name, args = {}) => run.call(name, args).catch((err) => {
        if (err instanceof Superseded) throw err;
        return null;
      }),
    };
    return run;
  }

  return {
    /** The sequence now running, for a flow that continues it. */
    current: () => handle(epoch),
    /** Replace the sequence: older flows stop at their next await. */
    restart() {
      epoch += 1;
      return handle(epoch);
    },
  };
}

/** Wrap a flow as an entry point: it ends quietly when superseded; other errors pass. */
export function entry(flow) {
  return async (...args) => {
    try {
      return await flow(...args);
    } catch (err) {
      if (!(err instanceof Superseded)) throw err;
      return undefined;
    }
  };
}

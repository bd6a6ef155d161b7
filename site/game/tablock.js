// tablock.js: one tab owns the match at a time (Web Locks), so two tabs never overwrite
// each other's save.
//
// The owner holds the lock named after the match's storage key for as long as it plays.
// Another tab finds the lock taken and waits; it may take the match over (`take()`,
// which steals the lock): the old owner is told at once (`onLost`) and stops saving.
// A claim waits a moment for the lock: a tab that was just closed or reloaded may still hold
// it while the browser tears it down, and that is not another tab playing.
// Without Web Locks (very old browsers) every tab simply owns its page, as before.

/** How long a claim waits for a lock held by a tab that may be going (ms). */
const CLAIM_WAIT_MS = 1500;

/**
 * `name`: the lock (one per match store). Returns {owned(), claim(), take()}:
 * claim() resolves true when this tab now owns the match, false when another tab does;
 * take() resolves once this tab owns it (the other tab's onLost runs).
 */
export function createTabLock(name, { onLost }) {
  const locks = typeof navigator !== "undefined" && navigator.locks;
  let owned = !locks;

  /** Hold the lock until it is stolen; resolves with whether it was granted. */
  function hold(options) {
    return new Promise((granted) => {
      let got = false;
      locks.request(name, options, (lock) => {
        if (!lock) {
          granted(false);
          return undefined;
        }
        got = true;
        owned = true;
        granted(true);
        return new Promise(() => {}); // held for the page's life, unless stolen
      }).catch(() => {
        if (!got) {
          granted(false); // the claim's wait ran out: another tab holds the match
        } else if (owned) {
          owned = false; // stolen by another tab (AbortError)
          onLost();
        }
      });
    });
  }

  /** A claim's options: wait up to CLAIM_WAIT_MS, or only take a free lock where a request
   * cannot be given a time limit. */
  function claimOptions() {
    const timeout = typeof AbortSignal !== "undefined" && AbortSignal.timeout;
    return timeout ? { signal: AbortSignal.timeout(CLAIM_WAIT_MS) } : { ifAvailable: true };
  }

  return {
    owned: () => owned,
    claim: () => (locks ? hold(claimOptions()) : Promise.resolve(true)),
    take: () => (locks ? hold({ steal: true }) : Promise.resolve(true)),
  };
}

// tablock.js: one tab owns the match at a time (Web Locks), so two tabs never overwrite
// each other's save.
//
// The owner holds the lock named after the match's storage key for as long as it plays.
// Another tab finds the lock taken and waits; it may take the match over (`take()`,
// which steals the lock): the old owner is told at once (`onLost`) and stops saving.
// Without Web Locks (very old browsers) every tab simply owns its page, as before.

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
      locks.request(name, options, (lock) => {
        if (!lock) {
          granted(false);
          return undefined;
        }
        owned = true;
        granted(true);
        return new Promise(() => {}); // held for the page's life, unless stolen
      }).catch(() => {
        // stolen by another tab (AbortError)
        if (owned) {
          owned = false;
          onLost();
        }
      });
    });
  }

  return {
    owned: () => owned,
    claim: () => (locks ? hold({ ifAvailable: true }) : Promise.resolve(true)),
    take: () => (locks ? hold({ steal: true }) : Promise.resolve(true)),
  };
}

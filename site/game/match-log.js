// match-log.js: the game's side of the match history (lib/history.js). Each finished match,
// and a match abandoned for a new one, is recorded from the engine's report (the session
// save and the state after the match's last action). The record's id is a hash of the
// match itself, so two tabs recording the same match store it once. When the history
// cannot be kept (IndexedDB missing, blocked or full) the game goes on and a visible
// notice says so.
import { openHistory } from "../lib/history.js";
import { t } from "../lib/i18n.js";

/** The catalogue key of the notice for a history failure (its HistoryError code). */
const noticeKey = (err) => (err && err.code === "quota" ? "history.full" : "history.off");

/** The match log; `open` opens the history (tests and embeds may pass another). */
export function createMatchLog({ open = openHistory } = {}) {
  let opened = null;
  const history = () => (opened ||= open());

  function notice(err) {
    const box = document.querySelector("[data-role='history-notice']");
    box.textContent = t(noticeKey(err));
    box.hidden = false;
  }

  /** Open the history now, so that a failure is shown before the first match ends. */
  async function check() {
    const h = await history();
    if (!h.available) notice(h.error);
  }

  /** Record a match ({saveText, state} from the controller); failures become the notice. */
  async function record({ saveText, state }) {
    if (!saveText || !state) return;
    try {
      const h = await history();
      if (!h.available) throw h.error;
      await h.addMatch({ saveText, state });
    } catch (err) {
      notice(err);
    }
  }

  return { check, record };
}

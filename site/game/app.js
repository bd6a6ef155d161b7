// app.js: the game page's entry module. Reads the address and the settings, starts the
// engine, wires the page's controls to the controller (controller.js), and boots: a
// seeded deal, else the saved match, else a new one. Nothing here sequences engine calls.
import { disableTable, download, notice, showFault } from "./alerts.js";
import { badSaveText, createAnnouncer, showMessage } from "./announcer.js";
import { errorText } from "../lib/errors.js";
import { createProgress } from "./boot.js";
import { createController } from "./controller.js";
import { HUMAN } from "../lib/constants.js";
import { createDialogs, fillNewMatch, fillSettings } from "./dialogs.js";
import { initBlindChoice } from "./blind-nil.js";
import { BLIND_NIL } from "../lib/constants.js";
import { MSG } from "../engine/protocol.js";
import { createRulesForm } from "./rules-form.js";
import { rulesName } from "../lib/rules-words.js";
import { STOPPED_ERROR, startEngine } from "../engine/engine.js";
import { createMatchLog } from "./match-log.js";
import { applyStatic, currentLanguage, currentLocale, loadLanguage, pickLanguage, t } from "../lib/i18n.js";
import { readParams, shownSeed, withoutSeed } from "./params.js";
import { MAX_ASIDE, createSaver, matchStore } from "./persistence.js";
import { loadSettings } from "../lib/settings.js";
import { keepSettings } from "./settings-form.js";
import { BOOT_ERROR } from "../engine/protocol.js";
import { fillSheet, sheetButtons } from "./scoresheet.js";
import { openReview } from "./review-panel.js";
import { createReviewMode } from "./review-mode.js";
import { setPhase } from "./screen.js";
import { buildBidButtons, focusBids } from "./bids.js";
import { initHand } from "./hand.js";
import { initMenu } from "./menu.js";
import { createSound } from "./sound.js";
import { registerOffline } from "../lib/offline.js";
import { fillHeight, reportFrameSize } from "../lib/frame-size.js";
import * as table from "./table.js";
import { createTabLock } from "./tablock.js";
import { $ } from "../lib/dom.js";
import { PEOPLE } from "./params.js";
import { passTo } from "./privacy.js";
import { joinCode } from "./friends/address.js";
import { createReactions, showReaction } from "./friends/reactions.js";
import { compassName } from "../lib/words.js";
import { drawnSeat } from "./viewpoint.js";

const params = readParams(location.search);
/** An embedded table: embed.html (the build writes it from this page, its root marked
 * data-page="embed"), or this page asked for as `?embed=1`. */
const EMBED = params.embed || document.documentElement.dataset.page === "embed";
/** Whether the page is in a frame (an embed, or index.html in an author's iframe). */
const FRAMED = (() => {
  try {
    return window.top !== window;
  } catch {
    return true;
  }
})();
/** An embedded table (embed.html, or the game in any frame) keeps a match of its own,
 * named by its parameters or its `id=`, apart from the player's own game and other embeds. */
const OWN_TABLE = EMBED || FRAMED;
/** File name of a refused save the player downloads: its refusal's date and time (UTC), so each copy is found. */
const refusedSaveFile = (at) =>
  at === null ? "spades-refused-save.json" : `spades-refused-save-${new Date(at).toISOString().slice(0, 19).replace(/[T:]/g, "-")}.json`;

/** A friend's invitation in the address: this page is then a guest at another player's table. */
const JOIN = joinCode(location);
/** Where the page keeps who the people at its table are ({mode: "pass" | "host", who}). */
const PEOPLE_KEY = "spades.people.v1";

/** The host's modules (WebRTC, invitations, QR codes), loaded once a table has friends. */
let friendModules = null;
const loadFriends = () => (friendModules ||= Promise.all([import("./friends/host.js"), import("./friends/invite-view.js")]));

/** The table's people as kept (null: the player alone with computer players). */
function loadPeople() {
  try {
    const v = JSON.parse(localStorage.getItem(PEOPLE_KEY) || "null");
    return v && ["pass", "host"].includes(v.mode) && Object.hasOwn(PEOPLE, v.who) ? v : null;
  } catch {
    return null;
  }
}
function keepPeople(v) {
  try {
    if (v) localStorage.setItem(PEOPLE_KEY, JSON.stringify({ mode: v.mode, who: v.who }));
    else localStorage.removeItem(PEOPLE_KEY);
  } catch {
    /* storage refused: the table is the player's own after a reload */
  }
}

/** How long a fault reported during start-up waits for the page's language to load. */
const LANGUAGE_WAIT_MS = 3000;

function main() {
  const settings = loadSettings();
  if (JOIN) {
    // a friend's page: its own module (with the QR code maker), loaded only for a guest
    import("./friends/guest-page.js").then(({ guestMain }) => guestMain({ settings, code: JOIN, params }));
    return;
  }
  const store = matchStore(OWN_TABLE, params.tableKey());
  const progress = createProgress();
  const announce = createAnnouncer($("#live"));
  const matchLog = createMatchLog();
  // an engine failing before the page's language is loaded waits for its words (boot())
  let languageLoaded = () => {};
  const languageReady = new Promise((resolve) => { languageLoaded = resolve; });
  // Boot Python first: language, deck and table set-up all overlap the runtime's download.
  const engine = startEngine({
    onProgress: (p) => progress.update(p), onSave: (text) => ctl.onSave(text), onFail: failed,
  });
  const lock = createTabLock(store.lockName, { onLost: movedAway });
  const save = createSaver(store, {
    owned: lock.owned,
    onFailed: () => notice("storage", t("fault.storageFailed")),
    onSaved: () => notice("storage", null),
  });
  const dialogs = createDialogs({
    afterClose: () => ctl.refocus(),
    bidding: () => {
      const S = ctl.state.S;
      return Boolean(S && S.to_act === HUMAN && S.phase === "bid" && !ctl.state.pendingHand);
    },
  });
  // who plays at this table: the player alone, people passing this device, or friends
  // joining from theirs (the host's page then runs the match for everyone)
  let people = OWN_TABLE ? null : loadPeople();
  let host = null;
  let invites = null;
  const hooks = {
    mode: () => (people ? people.mode : "solo"),
    handOver: passTo,
    friends: () => (host ? host.friends() : []),
    tell: (seat, S, event) => host && host.tell(seat, S, event),
    react: (seat, phrase) => {
      if (!host || !host.mayReact(seat)) return;
      showReaction(drawnSeat(seat, ctl.state.me), phrase, announce);
      host.react(seat, phrase);
    },
  };
  // sounds: the player's setting; in a frame only when its author asks for them (`sound=1`)
  const sound = createSound(() => settings.sound && (!FRAMED || params.sound));
  const ctl = createController({
    engine, store, save, settings, speedOverride: params.speed, announce, sound,
    onScoredHand: () => openSheet(true), onMatchEnd: matchLog.record, people: hooks,
  });

  // the host's page going away tells every friend at once (their table stays, read-only)
  window.addEventListener("pagehide", () => host && host.bye());

  // quick reactions, at a table with friends: shown at the player's own seat and sent to them
  const reactions = createReactions({
    send: (phrase) => {
      showReaction(HUMAN, phrase, announce);
      if (host) host.react(HUMAN, phrase);
    },
  });

  /** Friends at this table: their seats' invitations (made now), the panel, the menu's button.
   * The friends' modules (WebRTC, invitations, QR codes) load the first time a table has
   * friends; resolves once the host is set up (its invitations are made meanwhile). */
  async function hostFor(value) {
    if (host) host.bye();
    host = null;
    invites = null;
    $("[data-action='invite']").hidden = true;
    reactions.show(Boolean(value && value.mode === "host"));
    if (!value || value.mode !== "host") return;
    const [{ HOLD_MS, INVITE_MS, createHost }, { createInviteView }] = await loadFriends();
    if (people !== value) return; // the table's people changed meanwhile
    const seats = PEOPLE[value.who].filter((s) => s !== HUMAN);
    host = createHost({
      seats, stun: () => settings.stun, holdMs: params.holdMs() || HOLD_MS, inviteMs: params.inviteMs() || INVITE_MS,
      onChange: (seat) => invites && invites.draw(seat),
      onNotice: (code, seat) => announce(t(`friends.notice.${code}`, { name: compassName(seat) })),
    });
    host.attach(ctl);
    invites = createInviteView({ host, scanAnswer });
    $("[data-role='invite-list']").replaceChildren();
    $("[data-action='invite']").hidden = false;
    for (const seat of seats) host.invite(seat);
  }

  /** Open the invitation panel (the first seat still waiting gets focus). */
  function openInvites() {
    if (!host) return;
    invites.drawAll();
    const first = $("#friends-dialog textarea[data-role='answer-input']:enabled") || $("[data-action='close-friends']");
    dialogs.show($("#friends-dialog"), first);
  }

  /** Fill `field` with a QR code the camera reads (where the browser offers BarcodeDetector). */
  async function scanAnswer(field) {
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
      const video = document.createElement("video");
      video.srcObject = stream;
      await video.play();
      const detector = new window.BarcodeDetector({ formats: ["qr_code"] });
      for (let i = 0; i < 100 && !field.value; i++) {
        const found = await detector.detect(video);
        if (found.length) field.value = found[0].rawValue;
        else await new Promise((r) => setTimeout(r, 200));
      }
      for (const track of stream.getTracks()) track.stop();
    } catch {
      field.focus();
    }
  }
  const st = ctl.state;
  const rulesForm = createRulesForm({
    ask: (rules) => engine.call(MSG.RULES, { rules }), storeKey: EMBED ? "spades.embed.rules.v1" : "spades.rules.v1",
  });
  initBlindChoice({ onBlind: () => ctl.humanBid(BLIND_NIL), onSee: () => ctl.look().then(focusBids), announce });

  const defaultLevel = () => (st.levels.includes("normal") ? "normal" : st.levels[0]);
  const urlLevel = (name) => params.level(name, st.levels);
  const hintLevel = () => ["normal", "hard"].find((lv) => st.levels.includes(lv)) || st.levels[st.levels.length - 1];

  function startMatch(opts) {
    dialogs.closeAll();
    const args = {
      partner: opts.partner || urlLevel("partner") || defaultLevel(),
      opponents: opts.opponents || urlLevel("opponents") || defaultLevel(),
    };
    const seed = opts.seed === undefined || opts.seed === null ? "" : String(opts.seed).trim();
    if (seed !== "") args.seed = seed;
    if (opts.rules) args.rules = opts.rules;
    const wanted = opts.people === undefined ? people : opts.people;
    args.humans = wanted ? PEOPLE[wanted.who] : [HUMAN];
    people = wanted;
    keepPeople(people);
    const started = ctl.startMatch(args);
    hostFor(people).then(openInvites); // (nothing to open without friends)
    return started;
  }

  /** Stops the review shown on the score sheet (closing the sheet ends it, except for the table). */
  let stopReview = () => {};
  let toTable = false;
  // a reviewed decision on the table: the sheet steps aside, and comes back as it was
  const reviewMode = createReviewMode({
    engine,
    locked: () => [$(".topbar .tools"), $("#table"), $(".hand-area")],
    onLeave: (button) => dialogs.show($("#sheet-dialog"), button || sheetButtons(Boolean(st.pendingHand))),
  });
  const showOnTable = (ctx) => {
    toTable = true;
    $("#sheet-dialog").close();
    reviewMode.open(ctx);
  };

  function openSheet(afterHand) {
    const pending = st.pendingHand;
    reviewMode.leave(true); // a sheet the game opens (a hand just scored) ends a review on the table
    stopReview();
    fillSheet(st.S ? st.S.sheet : [], afterHand && pending ? pending.number : null, afterHand, ctl.exportHand,
      (n, box) => { stopReview(); stopReview = openReview(engine, box, n, ctl.exportHand, showOnTable); }, st.S ? st.S.rules : null);
    dialogs.show($("#sheet-dialog"), sheetButtons(afterHand));
  }

  function continueAfterHand() {
    const dlg = $("#sheet-dialog");
    if (dlg.open) dlg.close();
    ctl.continueAfterHand();
  }

  /** The engine could not start or stopped answering: say so, offer to reload; the save stays. */
  function failed(code) {
    ctl.halt();
    // (at most LANGUAGE_WAIT_MS: a stalled catalogue never hides the fault)
    Promise.race([languageReady, new Promise((resolve) => setTimeout(resolve, LANGUAGE_WAIT_MS))]).then(() => {
      progress.fail(t("loading.failed"));
      showFault(t(code === BOOT_ERROR ? "fault.boot" : "fault.stopped"), t("fault.reload"));
    });
  }

  /** Another tab took the match: stop here, say so, offer to take it back. */
  function movedAway() {
    ctl.halt();
    disableTable();
    notice("tab", t("fault.movedAway"), [{ label: t("fault.takeOver"), run: takeOver }]);
  }

  async function takeOver() {
    notice("tab", null);
    await lock.take();
    ctl.unhalt();
    await playHere(null);
  }

  /** A save the engine refused: kept aside beside earlier ones, a download button for each (newest
   *  first), and a new match offered. */
  function refusedSave(saved, err) {
    const text = badSaveText(err);
    store.keepAside(saved);
    const kept = store.asideSaves().reverse();
    const when = new Intl.DateTimeFormat(currentLocale(), { dateStyle: "medium", timeStyle: "medium" });
    const copies = kept.length ? kept : [{ at: null, text: saved }]; // storage refused the copy: this one still downloads
    notice("aside", t("fault.keptAside", { n: kept.length, max: MAX_ASIDE }), copies.map(({ at, text: copy }) => ({
      label: at === null ? t("fault.exportSave") : t("fault.exportSaveAt", { when: when.format(at) }),
      run: () => download(refusedSaveFile(at), copy),
    })));
    $("[data-role='loading-text']").textContent = t("loading.choose");
    showMessage(text, "error");
    announce(text);
    openNewMatch(text);
  }

  function openNewMatch(notice, seed = "", rules = null) {
    const S = st.S;
    const focus = fillNewMatch({
      levels: st.levels, fallback: defaultLevel(), notice, seed, abandoning: Boolean(S && S.phase !== "over"),
      people: people ? `${people.mode}-${people.who}` : "solo",
      partner: (S && S.levels.partner) || urlLevel("partner") || defaultLevel(),
      opponents: (S && S.levels.opponents) || urlLevel("opponents") || defaultLevel(),
    });
    const opener = document.activeElement;
    dialogs.closeAll();
    if (opener && opener !== document.body && !opener.closest("dialog")) opener.focus({ preventScroll: true });
    dialogs.show($("#new-dialog"), focus);
    return rulesForm.fill(rules !== null ? rules : rulesForm.remembered());
  }

  function showLastTrick() {
    const dlg = $("#trick-dialog");
    $("[data-role='trick-body']", dlg).replaceChildren(table.trickView(st.S ? st.S.last_trick : null));
    dialogs.show(dlg, $("[data-action='close-trick']", dlg));
  }

  const settingsLevels = () => (st.S ? st.S.levels : null);
  const applyDeck = () => document.body.classList.toggle("four-colour", settings.fourColour);

  async function applyLanguage(code) {
    await loadLanguage(code);
    applyStatic();
    $("[data-role='rules-link']").setAttribute("href", `rules/${currentLanguage()}.html`);
    document.title = t("app.title");
    buildBidButtons(ctl.humanBid);
    rulesForm.relabel();
    reactions.relabel();
    if (invites) invites.drawAll();
    ctl.render();
  }

  function wire() {
    initHand({ onPlay: ctl.humanPlay, onRefused: ctl.whyNot });
    initMenu();
    ctl.initHurry();
    // a browser lets a page make sound only once the player has touched it
    for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, sound.unlock, { capture: true, passive: true });
    const actions = {
      hint: () => ctl.hint(hintLevel()),
      why: (btn) => ctl.why(Number(btn.dataset.seat)),
      undo: () => ctl.undo(dialogs.closeAll),
      "last-trick": showLastTrick,
      scores: () => openSheet(false),
      settings: () => dialogs.show($("#settings-dialog"), fillSettings(settings, settingsLevels())),
      "new-match": () => st.ready && openNewMatch(null),
      invite: openInvites,
      "close-friends": () => $("#friends-dialog").close(),
      continue: continueAfterHand,
      "close-sheet": () => $("#sheet-dialog").close(),
      "close-trick": () => $("#trick-dialog").close(),
      "cancel-new": () => $("#new-dialog").close(),
    };
    document.addEventListener("click", (ev) => {
      const btn = ev.target.closest("[data-action]");
      if (btn && !btn.disabled && Object.hasOwn(actions, btn.dataset.action)) actions[btn.dataset.action](btn);
    });
    $("#sheet-dialog").addEventListener("close", () => {
      if (!toTable) stopReview();
      toTable = false;
    });
    // Escape on the after-hand sheet means Continue
    $("#sheet-dialog").addEventListener("cancel", (ev) => {
      if (st.pendingHand) {
        ev.preventDefault();
        continueAfterHand();
      }
    });
    $("#new-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const f = ev.target;
      const rules = await rulesForm.confirm(); // null: refused, the reason beside the form, the dialog open
      if (!rules) return;
      $("#new-dialog").close();
      const [mode, who] = f.people.value.split("-");
      const chosen = mode === "solo" || !Object.hasOwn(PEOPLE, who) ? null : { mode, who };
      startMatch({ partner: f.partner.value, opponents: f.opponents.value, seed: f.seed.value, rules, people: chosen });
    });
    keepSettings(settings, { applyLanguage, levels: settingsLevels });
  }

  async function boot() {
    document.body.classList.toggle("embed", EMBED);
    document.body.classList.toggle("compact", EMBED || params.compact);
    applyDeck();
    try {
      await applyLanguage(pickLanguage(params.lang || settings.lang));
    } catch {
      /* English text from the HTML stays */
    }
    languageLoaded();
    if (FRAMED) reportFrameSize(fillHeight); // an author's frame (embed.js) follows the table's height
    wire();
    matchLog.check();
    setPhase("loading");
    table.renderSeats(null, false);
    table.renderScores(null); // "0 bags" etc. in the page's language while Python loads
    progress.update({ stage: "runtime", fraction: 0 });
    // The tab lock needs no engine: claimed while Python starts, so the saved match is asked
    // for as soon as the engine answers (a claim can wait behind the other frames of a page).
    const claimed = lock.claim();
    const greeted = ctl.hello();
    // Once this tab owns the match, its saved match is asked for at once: the request waits in
    // the engine's queue behind hello, so the table is drawn a round trip sooner.
    const early = claimed.then((own) => (own && !params.people() && !hosting() ? resumeSaved() : null));
    try {
      await greeted;
    } catch {
      failed(BOOT_ERROR);
      return;
    }
    rulesForm.build(st.presets);
    // a reload should resume this match, not deal the link's again (an embedded table's
    // address names its own store, so it keeps its seed: its match is resumed from there)
    const seed = params.hasSeed ? params.seed : null;
    if (!OWN_TABLE && (seed !== null || linkRules !== null)) history.replaceState(null, "", withoutSeed(location.href));
    if (!(await claimed)) {
      const text = t("fault.otherTab");
      $("[data-role='loading-text']").textContent = text;
      notice("tab", text, [{ label: t("fault.takeOver"), run: takeOver }]);
      pendingSeed = seed;
      return;
    }
    await playHere(seed, await early);
  }

  /** Whether this page hosts a table of friends (kept from an earlier visit). */
  const hosting = () => Boolean(people && people.mode === "host");

  /**
   * Start resuming the saved match ({saved, done}; null: nothing saved). A hosted match invites
   * its friends again first. Started by boot as soon as the tab owns a plain resume (no friends),
   * else by playHere; its outcome is handled in playHere.
   */
  function resumeSaved() {
    const saved = store.load();
    if (!saved) return null;
    const done = (async () => {
      if (hosting()) {
        await hostFor(people);
        openInvites();
      }
      await ctl.resume(saved);
    })();
    done.catch(() => {}); // awaited in playHere (a failed boot is shown by boot)
    return { saved, done };
  }

  let pendingSeed = null; // a link's seed waiting while another tab owns the match
  let linkRules = params.rules; // the link's rules (text), used by the first match the page starts

  /**
   * This tab owns the match: resume the saved match, or deal the link's (`seed`, `?rules=`).
   * A link never replaces a match in progress unasked: the New match dialog opens with its
   * seed and rules. A link's match plays the link's rules (none: 1.0.0, so a shared link
   * deals the same cards for everyone); a first match without a link, the last chosen.
   * An embedded table's store belongs to its link: a match saved there is resumed as it was.
   */
  async function playHere(seed, early = null) {
    const together = params.people();
    if (together) {
      // a table of several people from the address: dealt at once, straight at its invitation
      history.replaceState(null, "", withoutSeed(location.href));
      await startMatch({ ...(seed === null ? {} : { seed }), people: { mode: together.mode, who: together.who } });
      return;
    }
    if (seed === null) [seed, pendingSeed] = [pendingSeed, null];
    const rulesText = linkRules;
    linkRules = null;
    const asked = seed !== null || rulesText !== null;
    const resuming = early || resumeSaved();
    const saved = resuming ? resuming.saved : null;
    let link = asked && !(OWN_TABLE && saved);
    if (resuming) {
      try {
        await resuming.done;
      } catch (err) {
        if (err && (err.code === BOOT_ERROR || err.code === STOPPED_ERROR)) return; // shown; save untouched
        refusedSave(saved, err);
        link = asked;
        if (!link) return;
      }
    }
    if (link && st.S && st.S.phase !== "over") {
      const text = seed !== null ? t("fault.linkSeed", { seed: shownSeed(seed) })
        : t("rules.linkAsks", { name: rulesName({ name: shownSeed(rulesText) }) });
      const refused = await openNewMatch(text, seed === null ? "" : seed, rulesText === null ? "1.0.0" : rulesText);
      if (refused) rulesForm.linkRefused(refused);
      return;
    }
    if (link) $("#new-dialog").close();
    if (link || !st.S) {
      const rules = await rulesForm.startRules(link, rulesText);
      await startMatch({ ...(seed === null ? {} : { seed }), ...(rules ? { rules } : {}) });
    }
    if (!st.S && seed !== null) openNewMatch(errorText(st.refusal)); // the link's seed was refused
  }

  // the offline cache is filled once the table is up (or the boot gave up)
  boot().finally(registerOffline);
}

main();

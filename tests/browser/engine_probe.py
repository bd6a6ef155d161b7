"""The engine's workers seen from outside the page: a helper of the browser tests and of
tools/bench_site.py.

The game's engine runs in a SharedWorker shared by every page and frame of the site in one
browser (site/engine/connect.js), or in a dedicated Worker where SharedWorker is missing.
Playwright lists a page's dedicated workers (``page.workers``) but not shared workers, so
these are found and reached through the Chrome DevTools Protocol: ``Target.getTargets`` lists
them (type ``shared_worker``) with their browser context, a session attached to one evaluates
script inside it, and ``Target.closeTarget`` ends one (a dead engine, for the fault tests).
Playwright's routes and offline emulation do not reach a shared worker's own requests; tests
that hold or break the engine's files run the dedicated engine (:data:`DEDICATED_ENGINE`).
"""
from __future__ import annotations

import json
import time

#: The engine worker's script, as its URL ends.
ENGINE_SCRIPT = "/engine/engine-worker.js"
#: An init script that takes SharedWorker away: the page then starts a dedicated engine worker,
#: as in a browser without shared workers.
DEDICATED_ENGINE = "delete window.SharedWorker;"
#: How long :func:`evaluate_in_shared` waits for an answer (s).
ANSWER_S = 120

# self.spadesBoot of the engine worker once it booted and, after a plain boot, finished (or
# gave up) storing its snapshot (see site/engine/worker.js).
BOOT_INFO_JS = """new Promise((resolve) => {
  const poll = () => {
    const b = self.spadesBoot;
    if (b && b.path && b.stored !== null) resolve(b);
    else setTimeout(poll, 50);
  };
  poll();
})"""


def _is_engine(url: str) -> bool:
    return url.split("?")[0].endswith(ENGINE_SCRIPT)


def _browser_session(page):
    session = getattr(page.context, "_engine_probe_cdp", None)
    if session is None:
        session = page.context.browser.new_browser_cdp_session()
        page.context._engine_probe_cdp = session
    return session


def _context_id(page) -> str:
    own = page.context.new_cdp_session(page)
    try:
        return own.send("Target.getTargetInfo")["targetInfo"]["browserContextId"]
    finally:
        own.detach()


def shared_engines(page) -> list[dict]:
    """The shared engine workers of ``page``'s browser context (CDP target infos)."""
    context_id = _context_id(page)
    targets = _browser_session(page).send("Target.getTargets")["targetInfos"]
    return [t for t in targets if t["type"] == "shared_worker" and t.get("browserContextId") == context_id
            and _is_engine(t["url"])]


def dedicated_engines(page) -> list:
    """The dedicated engine workers of ``page`` (Playwright Worker objects)."""
    return [w for w in page.workers if _is_engine(w.url)]


def engine_count(page) -> dict[str, int]:
    """How many engine workers run for ``page``'s context: ``{"shared": n, "dedicated": m}``."""
    return {"shared": len(shared_engines(page)), "dedicated": len(dedicated_engines(page))}


def evaluate_in_shared(page, target_id: str, expression: str):
    """The value of ``expression`` (awaited when a promise) inside the shared worker ``target_id``."""
    cdp = _browser_session(page)
    answers: dict[int, dict] = {}

    def on_message(event: dict) -> None:
        msg = json.loads(event["message"])
        if "id" in msg:
            answers[msg["id"]] = msg

    cdp.on("Target.receivedMessageFromTarget", on_message)
    session = cdp.send("Target.attachToTarget", {"targetId": target_id, "flatten": False})["sessionId"]
    try:
        request = {"id": 1, "method": "Runtime.evaluate",
                   "params": {"expression": expression, "awaitPromise": True, "returnByValue": True}}
        cdp.send("Target.sendMessageToTarget", {"sessionId": session, "message": json.dumps(request)})
        deadline = time.monotonic() + ANSWER_S
        while 1 not in answers:
            if time.monotonic() > deadline:
                raise TimeoutError(f"no answer from the shared worker to {expression[:60]!r}")
            page.wait_for_timeout(20)  # lets Playwright deliver the session's events
        result = answers[1]
        if "error" in result or "exceptionDetails" in result["result"]:
            raise RuntimeError(f"evaluation in the shared worker failed: {result}")
        return result["result"]["result"].get("value")
    finally:
        cdp.remove_listener("Target.receivedMessageFromTarget", on_message)
        cdp.send("Target.detachFromTarget", {"sessionId": session})


def engine_evaluate(page, expression: str, wait_s: float = ANSWER_S):
    """The value of ``expression`` in ``page``'s engine worker, shared or dedicated (waits for
    the worker to exist; there must be exactly one)."""
    deadline = time.monotonic() + wait_s
    while True:
        shared, dedicated = shared_engines(page), dedicated_engines(page)
        if len(shared) + len(dedicated) == 1:
            break
        if time.monotonic() > deadline:
            raise AssertionError(f"expected one engine worker, found {len(shared)} shared and {len(dedicated)} "
                                 f"dedicated: {[w.url for w in page.workers]}")
        page.wait_for_timeout(50)
    if shared:
        return evaluate_in_shared(page, shared[0]["targetId"], expression)
    return dedicated[0].evaluate(f"() => {expression}")


def boot_info(page) -> dict:
    """``self.spadesBoot`` of ``page``'s engine once it booted (and stored its snapshot, or not)."""
    return engine_evaluate(page, BOOT_INFO_JS)


def boot_infos(page) -> list[dict]:
    """``self.spadesBoot`` of every engine of ``page``'s context, shared and dedicated, once each
    booted (and stored its snapshot, or not)."""
    infos = [evaluate_in_shared(page, t["targetId"], BOOT_INFO_JS) for t in shared_engines(page)]
    return infos + [w.evaluate(f"() => {BOOT_INFO_JS}") for w in dedicated_engines(page)]


def kill_shared_engines(page) -> int:
    """End every shared engine worker of ``page``'s context, as a crash would; returns how many."""
    found = shared_engines(page)
    for target in found:
        _browser_session(page).send("Target.closeTarget", {"targetId": target["targetId"]})
    return len(found)

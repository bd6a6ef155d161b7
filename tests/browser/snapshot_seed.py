"""The engine snapshot the browser tests seed their pages with (a helper of conftest.py).

The shared game page's first visit stores this build's Pyodide memory snapshot; the tests
copy it into each fresh context's Cache Storage so the engine restores it instead of a
plain start. Under pytest-xdist one worker makes it and the others take its copy.
"""
from __future__ import annotations

import json
import os
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

#: How long a pytest-xdist worker waits for another worker's snapshot (a plain boot or two).
SHARED_SNAPSHOT_WAIT_S = 300

# Waits until the engine worker stored its snapshot, then hands it to the test server
# (POST, raw bytes); returns where it lives in Cache Storage and its headers.
EXPORT_SNAPSHOT_JS = """async (target) => {
  const deadline = Date.now() + 120000;
  for (;;) {
    const name = (await caches.keys()).find((k) => k.startsWith("spades-snapshot-"));
    const cache = name && await caches.open(name);
    const req = cache && (await cache.keys())[0];
    if (req) {
      const resp = await cache.match(req);
      const bytes = await resp.arrayBuffer();
      const post = await fetch(target, { method: "POST", body: bytes });
      if (!post.ok) throw new Error("snapshot upload: HTTP " + post.status);
      return { name, url: req.url, headers: [...resp.headers], size: bytes.byteLength };
    }
    if (Date.now() > deadline) throw new Error("the shared game page stored no snapshot");
    await new Promise((r) => setTimeout(r, 50));
  }
}"""

# Puts the snapshot into this (fresh) context's Cache Storage, as a first visit would,
# under the page's own origin (the engine looks it up relative to the site's address).
SEED_SNAPSHOT_JS = """async ([snap, source]) => {
  const resp = await fetch(source, { cache: "no-store" });
  const bytes = await resp.arrayBuffer();
  if (bytes.byteLength !== snap.size) throw new Error("snapshot seed: wrong size " + bytes.byteLength);
  const cache = await caches.open(snap.name);
  const url = new URL(new URL(snap.url).pathname, location.href).href;
  await cache.put(url, new Response(bytes, { headers: snap.headers }));
}"""


def shared_snapshot(folder: Path, upload_url: str, make: Callable[[], dict]) -> dict:
    """The snapshot's entry ({name, url, headers, size}) with its bytes served at ``upload_url``.

    The first worker to get here (an exclusive lock file in ``folder``, common to the
    workers of one run) calls ``make`` (which leaves the bytes at ``upload_url``) and
    leaves a copy of both in ``folder``; the others wait for that copy and POST its bytes
    to their own test server.
    """
    folder.mkdir(exist_ok=True)
    meta_file, bin_file = folder / "meta.json", folder / "snapshot.bin"
    try:
        os.close(os.open(folder / "lock", os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        deadline = time.monotonic() + SHARED_SNAPSHOT_WAIT_S
        while not meta_file.is_file():
            if time.monotonic() > deadline:
                raise TimeoutError("another pytest-xdist worker made no snapshot in time") from None
            time.sleep(0.2)
        upload = urllib.request.Request(upload_url, data=bin_file.read_bytes(), method="POST")
        urllib.request.urlopen(upload).close()
        return json.loads(meta_file.read_text())
    snap = make()
    with urllib.request.urlopen(upload_url) as resp:
        (folder / "snapshot.part").write_bytes(resp.read())
    (folder / "snapshot.part").replace(bin_file)
    (folder / "meta.part").write_text(json.dumps(snap))
    (folder / "meta.part").replace(meta_file)     # last: its presence says both are complete
    return snap

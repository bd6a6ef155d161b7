"""Precompressed siblings of the built site (``x.js.gz``, ``x.js.br``) and what a host sends.

A host that serves such siblings (``build_site.py serve`` does, by ``Accept-Encoding``)
sends a file gzip- or brotli-compressed at the highest settings without compressing it on
each request. A sibling is written only where it saves at least ``MIN_SAVING`` of the
file (already deflated files such as wheels and images get none). gzip comes from
Python's standard library (level 9, no time stamp: reproducible); brotli, which the
standard library lacks, from Node's zlib (quality 11), run by ``brotli_node.mjs``; its
results are kept in ``.cache/brotli/`` by content hash, since a quality-11 pass over
Pyodide's 9.6 MB wasm takes minutes and Pyodide's files never change for one pin.

``transfer(dist, paths)`` says what a first visit costs: the bytes sent for ``paths``
by a host without compression, one sending the gzip siblings, and one sending the brotli
siblings (a file without a sibling is sent as it is).
"""
from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path

#: Content-Encoding -> sibling suffix, in the order a server prefers them.
ENCODINGS = {"br": ".br", "gzip": ".gz"}
#: A sibling is kept only if it is at most this share of the file.
MIN_SAVING = 0.10
GZIP_LEVEL = 9
BROTLI_QUALITY = 11  # also in brotli_node.mjs
BROTLI_NODE = Path(__file__).resolve().parent / "brotli_node.mjs"


class CompressError(RuntimeError):
    """Compressing failed (Node missing, or its brotli pass failed)."""


def is_sibling(path: Path) -> bool:
    """Whether ``path`` is a precompressed sibling of a file beside it."""
    return path.suffix in ENCODINGS.values() and path.with_suffix("").is_file()


def drop_siblings(path: Path) -> None:
    """Remove ``path``'s precompressed siblings (it changed: they would be served in its place)."""
    for suffix in ENCODINGS.values():
        path.with_name(path.name + suffix).unlink(missing_ok=True)


def gzip_bytes(data: bytes) -> bytes:
    """gzip at ``GZIP_LEVEL`` with no name or time stamp: the same bytes on every build."""
    return gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0)


def _worth_it(original: int, packed: int) -> bool:
    return packed <= original * (1 - MIN_SAVING)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Brotli:
    """Brotli results by content hash in ``cache``; ``start`` runs Node on the files not yet
    cached, in the background, so the build does other work meanwhile."""

    def __init__(self, cache: Path, node: str | None = None) -> None:
        self.cache = cache
        self.node = node or shutil.which("node")
        self.jobs: list[tuple[subprocess.Popen, Path]] = []

    def cached(self, path: Path) -> Path:
        return self.cache / f"{_digest(path)}-q{BROTLI_QUALITY}.br"

    def start(self, paths: Iterable[Path]) -> None:
        todo = sorted({(str(p), str(self.cached(p))) for p in paths if not self.cached(p).is_file()})
        if not todo:
            return
        if self.node is None:
            raise CompressError("node is not installed (needed for the brotli siblings)")
        self.cache.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", suffix=".json", dir=self.cache, delete=False) as fh:
            json.dump(todo, fh)
        proc = subprocess.Popen([self.node, str(BROTLI_NODE), fh.name])
        self.jobs.append((proc, Path(fh.name)))

    def wait(self) -> None:
        jobs, self.jobs = self.jobs, []
        failed = []
        for proc, listing in jobs:
            if proc.wait() != 0:
                failed.append(proc.returncode)
            listing.unlink(missing_ok=True)
        if failed:
            raise CompressError(f"brotli_node.mjs failed (exit {failed[0]})")

    def compress(self, paths: list[Path]) -> dict[Path, Path]:
        """The cached brotli file of each of ``paths`` (compressing those not cached)."""
        self.wait()  # a background job may be writing some of them
        self.start(paths)
        self.wait()
        return {p: self.cached(p) for p in paths}

    def stop(self) -> None:
        """End the background jobs (a failed build); what they finished stays cached."""
        for proc, listing in self.jobs:
            proc.kill()
            proc.wait()
            listing.unlink(missing_ok=True)
        self.jobs = []


def write_siblings(root: Path, brotli: Brotli) -> dict[str, int]:
    """Write the ``.gz`` and ``.br`` siblings of every file under ``root`` where they save
    ``MIN_SAVING``; return how many of each."""
    files = sorted(p for p in root.rglob("*") if p.is_file() and not is_sibling(p))
    worth = []
    for path in files:
        data = path.read_bytes()
        packed = gzip_bytes(data)
        if _worth_it(len(data), len(packed)):  # already deflated (wheels, images): no sibling, no brotli pass
            path.with_name(path.name + ENCODINGS["gzip"]).write_bytes(packed)
            worth.append(path)
    brs = 0
    for path, result in brotli.compress(worth).items():
        if _worth_it(path.stat().st_size, result.stat().st_size):
            shutil.copyfile(result, path.with_name(path.name + ENCODINGS["br"]))
            brs += 1
    return {"gzip": len(worth), "br": brs}


def transfer(dist: Path, paths: Iterable[str]) -> dict[str, int]:
    """Bytes a host sends for ``paths`` (relative to ``dist``): as they are (``identity``),
    with the gzip siblings (``gzip``) and with the brotli siblings (``br``)."""
    out = {"identity": 0, "gzip": 0, "br": 0}
    for rel in paths:
        path = dist / rel
        size = path.stat().st_size
        out["identity"] += size
        for encoding, suffix in ENCODINGS.items():
            sibling = path.with_name(path.name + suffix)
            out[encoding] += sibling.stat().st_size if sibling.is_file() else size
    return out

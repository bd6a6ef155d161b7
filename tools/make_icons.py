#!/usr/bin/env python3
"""Draw the site's icons (own artwork, standard library only).

    python tools/make_icons.py      # writes site/icons/icon.svg, icon-192.png,
                                    # icon-512.png, icon-maskable-512.png

A white spade on a dark green card table. The PNGs are rasterised here with
4x4 supersampling from the same shapes the SVG uses (circles + polygons).
"""
from __future__ import annotations

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "site" / "icons"
BG = (14, 90, 58)        # table green
FG = (250, 250, 245)     # card white

# The spade in a 100 x 100 box.
CIRCLES = [(34.0, 57.0, 17.0), (66.0, 57.0, 17.0)]
POLYS = [
    [(50.0, 12.0), (18.2, 52.0), (50.0, 70.0), (81.8, 52.0)],   # the blade
    [(47.0, 60.0), (53.0, 60.0), (62.0, 88.0), (38.0, 88.0)],   # the stem
]


def inside_poly(x: float, y: float, poly) -> bool:
    hit = False
    j = len(poly) - 1
    for i in range(len(poly)):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            hit = not hit
        j = i
    return hit


def in_spade(x: float, y: float) -> bool:
    for cx, cy, r in CIRCLES:
        if (x - cx) ** 2 + (y - cy) ** 2 <= r * r:
            return True
    return any(inside_poly(x, y, p) for p in POLYS)


def render(size: int, scale: float, rounded: bool) -> bytes:
    """RGBA rows; the spade drawn at ``scale`` of the icon around its centre."""
    ss = 4
    rows = []
    radius = 0.18 * size
    for py in range(size):
        row = bytearray([0])
        for px in range(size):
            fg = bg = 0
            for sy in range(ss):
                for sx in range(ss):
                    x = px + (sx + 0.5) / ss
                    y = py + (sy + 0.5) / ss
                    if rounded:
                        dx = max(radius - x, 0, x - (size - radius))
                        dy = max(radius - y, 0, y - (size - radius))
                        if dx * dx + dy * dy > radius * radius:
                            continue
                    bg += 1
                    u = (x / size - 0.5) / scale * 100 + 50
                    v = (y / size - 0.5) / scale * 100 + 50
                    if in_spade(u, v):
                        fg += 1
            n = ss * ss
            if bg == 0:
                row += bytes(4)
                continue
            t = fg / bg
            rgb = [round(BG[i] * (1 - t) + FG[i] * t) for i in range(3)]
            row += bytes(rgb + [round(255 * bg / n)])
        rows.append(bytes(row))
    return b"".join(rows)


PALETTE_MAX = 256        # colours an 8-bit indexed PNG can hold


def png(size: int, raw: bytes) -> bytes:
    """Encode RGBA rows (each with its filter byte) as a PNG.

    An icon drawn from two colours and their blends has far fewer than 256
    distinct pixels, so it is written as an indexed image (PLTE + tRNS), about
    half the bytes of the RGBA form; otherwise as RGBA.
    """
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    stride = 1 + 4 * size
    rows = [raw[i * stride + 1:(i + 1) * stride] for i in range(size)]
    colours = sorted({row[j:j + 4] for row in rows for j in range(0, len(row), 4)})
    if len(colours) <= PALETTE_MAX:
        index = {c: i for i, c in enumerate(colours)}
        data = b"".join(b"\0" + bytes(index[row[j:j + 4]] for j in range(0, len(row), 4)) for row in rows)
        head = struct.pack(">IIBBBBB", size, size, 8, 3, 0, 0, 0)
        extra = chunk(b"PLTE", b"".join(c[:3] for c in colours)) + chunk(b"tRNS", bytes(c[3] for c in colours))
    else:
        data, extra = raw, b""
        head = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + extra
            + chunk(b"IDAT", zlib.compress(data, 9)) + chunk(b"IEND", b""))


def svg() -> str:
    shapes = "".join(f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}"/>' for cx, cy, r in CIRCLES)
    shapes += "".join('<polygon points="' + " ".join(f"{x:g},{y:g}" for x, y in p) + '"/>' for p in POLYS)
    g = "#%02x%02x%02x" % BG
    w = "#%02x%02x%02x" % FG
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" role="img" aria-label="Spades">'
        f'<rect width="100" height="100" rx="18" fill="{g}"/>'
        f'<g fill="{w}" transform="translate(50 50) scale(0.78) translate(-50 -50)">{shapes}</g></svg>\n'
    )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "icon.svg").write_text(svg())
    for size in (192, 512):
        (OUT / f"icon-{size}.png").write_bytes(png(size, render(size, 0.78, rounded=True)))
    # maskable: full-bleed background, spade inside the 80 % safe circle
    (OUT / "icon-maskable-512.png").write_bytes(png(512, render(512, 0.6, rounded=False)))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Compare the translations in site/i18n/ with the English source.

    python tools/check_i18n.py              # report for every language
    python tools/check_i18n.py de ru        # only these languages
    python tools/check_i18n.py --since OLD_EN.json
                                            # also list English strings changed since OLD_EN.json

Reports, per language: keys missing (with the English text to translate), keys
that en.json no longer has, placeholder mismatches and strings identical to
English. Exit status 1 when a language has missing/extra keys or placeholder
mismatches (the same things tests/test_i18n.py enforces), else 0.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

I18N = Path(__file__).resolve().parents[1] / "site" / "i18n"
LANGS = ["de", "ro", "ru", "pt", "hu", "es"]
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def load(path: Path) -> dict:
    with path.open(encoding="utf-8") as fh:
        return json.load(fh)


def forms(value) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [value]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("langs", nargs="*", default=LANGS)
    ap.add_argument("--since", type=Path, help="an older copy of en.json to diff against")
    args = ap.parse_args(argv)

    en = load(I18N / "en.json")
    bad = False
    if args.since:
        old = load(args.since)
        changed = [k for k in en if k in old and old[k] != en[k]]
        added = [k for k in en if k not in old]
        for k in added:
            print(f"en: new key {k}: {json.dumps(en[k], ensure_ascii=False)}")
        for k in changed:
            print(f"en: changed {k}: {json.dumps(old[k], ensure_ascii=False)} -> {json.dumps(en[k], ensure_ascii=False)}")
    for lang in args.langs:
        tr = load(I18N / f"{lang}.json")
        missing = [k for k in en if k not in tr]
        extra = [k for k in tr if k not in en]
        mismatched = []
        for k, v in en.items():
            if k not in tr:
                continue
            want = set(PLACEHOLDER.findall(v["other"] if isinstance(v, dict) else v))
            if isinstance(v, dict) != isinstance(tr[k], dict):
                mismatched.append(f"{k} (plural object vs string)")
                continue
            for text in forms(tr[k]):
                if set(PLACEHOLDER.findall(str(text))) != want:
                    mismatched.append(f"{k}: {text!r} (want {sorted(want)})")
        same = [k for k in en if k in tr and tr[k] == en[k]]
        print(f"{lang}: {len(tr)} keys, {len(missing)} missing, {len(extra)} extra, "
              f"{len(mismatched)} placeholder problems, {len(same)} identical to English")
        for k in missing:
            print(f"  missing {k}: {json.dumps(en[k], ensure_ascii=False)}")
        for k in extra:
            print(f"  extra   {k}")
        for m in mismatched:
            print(f"  placeholders {m}")
        bad |= bool(missing or extra or mismatched)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

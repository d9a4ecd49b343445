"""Write sacorpus/models/date_words.json.gz: which dateparser languages know each word of a date.

Why a script: the table is made from the installed dateparser's language data (CLDR), and must be made
again when dateparser is upgraded (the page core warns and reads dates in every language until then).

    python scripts/build_date_words.py [-o sacorpus/models/date_words.json.gz]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sacorpus.text.date_languages import TABLE, build_table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", type=Path, default=TABLE)
    args = parser.parse_args()
    table = build_table()
    data = json.dumps(table, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")
    with open(args.output, "wb") as f, gzip.GzipFile(fileobj=f, mode="wb", mtime=0) as gz:
        gz.write(data)
    print(
        f"{args.output}: {len(table['words'])} words of {len(table['languages'])} languages "
        f"(dateparser {table['dateparser']}), {args.output.stat().st_size} bytes"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

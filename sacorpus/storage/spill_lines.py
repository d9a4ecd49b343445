"""The spill file's lines: one JSON record a line, raw bodies in base64.

Why apart from the store protocol: the pipelines, the candidates extension and the spill importer
write and read these lines without a store (the store is what is down when they are written).
"""

from __future__ import annotations

import base64
import json
import os
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any


def encode_spill_record(record: Mapping[str, Any]) -> str:
    out = dict(record)
    body = out.get("body")
    if isinstance(body, bytes | bytearray):
        out["body"] = None
        out["body_b64"] = base64.b64encode(body).decode("ascii")
    return json.dumps(out, ensure_ascii=False, default=str)


def decode_spill_record(line: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(line)
    b64 = record.pop("body_b64", None)
    if b64 is not None:
        record["body"] = base64.b64decode(b64)
    return record


#: the store's worker thread and the reactor thread (a forced stop) may spill at the same moment: one
#: writer at a time, so no two records' lines interleave
_WRITING = threading.Lock()


def write_spill(path: str | os.PathLike[str], records: Iterable[Mapping[str, Any]]) -> int:
    """Append records to a JSONL spill file (body base64); returns how many were written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with _WRITING, path.open("a", encoding="utf-8") as fh:
        for record in records:
            fh.write(encode_spill_record(record) + "\n")
            n += 1
        fh.flush()
        os.fsync(fh.fileno())
    return n

"""Parquet: one row per article, written in row groups by a ``pyarrow.parquet.ParquetWriter``.

Why row groups: the export streams; at most :data:`ROW_GROUP` articles (fewer when they are long,
:data:`ROW_GROUP_BYTES`) are held in memory before they go to the file, and pandas, DuckDB, Polars and Hugging Face ``datasets`` read the result as one
table. The schema is fixed (the same columns whatever the first article has), tokens, tags and
lemmas are list columns aligned with each other (null where an article was not tagged).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sacorpus.corpus.documents import article_id

ROW_GROUP = 1000
#: a row group is also written once its rows hold about this much (estimated Python memory): long
#: articles then make smaller groups, and the export's peak memory stays flat whatever the articles
ROW_GROUP_BYTES = 8 * 1024 * 1024
#: estimated Python memory per token in a row: the token, tag and lemma strings and their list slots
_BYTES_PER_TOKEN = 200

#: (column, arrow type name) in file order; the store fields they come from are in PARQUET_FIELDS
COLUMNS: tuple[tuple[str, str], ...] = (
    ("id", "string"),
    ("url", "string"),
    ("publication", "string"),
    ("published_at", "string"),
    ("title", "string"),
    ("authors", "list<string>"),
    ("agencies", "list<string>"),
    ("section", "string"),
    ("language", "string"),
    ("language_prob", "double"),
    ("dedup_label", "string"),
    ("text", "string"),
    ("token_count", "int64"),
    ("word_count", "int64"),
    ("tokens", "list<string>"),
    ("upos", "list<string>"),
    ("lemmas", "list<string>"),
    ("pos_model", "string"),
    ("fetched_at", "string"),
)
PARQUET_FIELDS = (*(name for name, _ in COLUMNS if name != "id"), "paragraph_languages")


def _schema() -> Any:
    import pyarrow as pa

    types = {
        "string": pa.string(),
        "double": pa.float64(),
        "int64": pa.int64(),
        "list<string>": pa.list_(pa.string()),
    }
    return pa.schema([(name, types[kind]) for name, kind in COLUMNS])


def parquet_row(record: Mapping[str, Any]) -> dict[str, Any]:
    """The row of one article (what :class:`ParquetExport` writes)."""
    from sacorpus.text.tagging.annotate import token_annotations  # the tagger only when exporting

    annotated = token_annotations(dict(record)) if record.get("upos") else None
    row = {name: record.get(name) for name, _ in COLUMNS}
    row["id"] = article_id(str(record.get("url") or ""))
    row["upos"] = [a[1] for a in annotated] if annotated else None
    row["lemmas"] = [a[2] for a in annotated] if annotated else None
    row["tokens"] = list(record.get("tokens") or [])
    row["authors"] = list(record.get("authors") or [])
    row["agencies"] = list(record.get("agencies") or [])
    for name in ("token_count", "word_count"):
        row[name] = int(record.get(name) or 0)
    prob = record.get("language_prob")
    row["language_prob"] = float(prob) if prob is not None else None
    return row


class ParquetExport:
    """Rows in, a Parquet file out; written as ``<name>.part`` and renamed when complete."""

    def __init__(self, path: str | Path, row_group: int = ROW_GROUP) -> None:
        self.path = Path(path)
        self.partial = self.path.with_name(self.path.name + ".part")
        self.row_group = row_group
        self.rows: list[dict[str, Any]] = []
        self.pending_bytes = 0
        self.writer: Any = None

    def __enter__(self) -> ParquetExport:
        import pyarrow.parquet as pq

        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.schema = _schema()
        self.writer = pq.ParquetWriter(self.partial, self.schema, compression="zstd")
        return self

    def write(
        self, record: dict[str, Any], *, tag: bool = False, models: dict[str, Any] | None = None
    ) -> None:
        """Add one article; ``tag``: give an article stored without tags the shipped models' tags."""
        if tag:
            from sacorpus.text.tagging.annotate import with_annotation

            record = with_annotation(record, models if models is not None else {})
        row = parquet_row(record)
        self.rows.append(row)
        self.pending_bytes += len(row["text"] or "") + len(row["tokens"]) * _BYTES_PER_TOKEN
        if len(self.rows) >= self.row_group or self.pending_bytes >= ROW_GROUP_BYTES:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa

        if self.rows:
            self.writer.write_table(pa.Table.from_pylist(self.rows, schema=self.schema))
            self.rows = []
            self.pending_bytes = 0
            pa.default_memory_pool().release_unused()  # Arrow's allocator would keep the group's buffers

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        try:
            if exc_type is None:
                self._flush()
        finally:
            self.writer.close()
        if exc_type is None:
            self.partial.replace(self.path)
        else:
            self.partial.unlink(missing_ok=True)

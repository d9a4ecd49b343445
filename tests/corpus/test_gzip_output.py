"""Exports to ``.gz`` are compressed by a thread: the same text comes back, a failing disk is loud.

``sacorpus.corpus.gzip_output.ThreadedGzipWriter`` hands blocks to a compressing thread; these check that
the file decompresses to exactly what was written (blocks cut mid-line, non-ASCII text, a last partial
block), that ``gzip`` reads it as one stream, and that a write error of the thread (``/dev/full``)
reaches the writer as an OSError instead of a silently short file.
"""

from __future__ import annotations

import gzip
import random
import subprocess
from pathlib import Path

import pytest

from sacorpus.corpus.cli import open_text_output
from sacorpus.corpus.gzip_output import ThreadedGzipWriter


def _pieces(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    words = ["Ubaba", "uthe", "umhlangano", "ɓ", "naïve", "Kaapstad", "says.The", "—", "2026", "👍🏾"]
    return [" ".join(rng.choice(words) for _ in range(rng.randint(1, 40))) + "\n" for _ in range(n)]


@pytest.mark.parametrize("block_chars", [7, 1000, 1 << 20])
def test_the_file_holds_exactly_the_text_written(tmp_path: Path, block_chars: int) -> None:
    pieces = _pieces(3000, seed=block_chars)
    path = tmp_path / "out.txt.gz"
    with ThreadedGzipWriter(path, level=6, block_chars=block_chars, depth=2) as out:
        for piece in pieces:
            assert out.write(piece) == len(piece)
    assert gzip.decompress(path.read_bytes()).decode("utf-8") == "".join(pieces)
    tested = subprocess.run(["gzip", "-t", str(path)], capture_output=True)
    assert tested.returncode == 0, tested.stderr


def test_a_disk_that_fails_is_raised_not_swallowed() -> None:
    rng = random.Random(1)
    noise = "".join(chr(rng.randint(0x41, 0x2FF)) for _ in range(200_000))  # does not compress away
    failing = ThreadedGzipWriter("/dev/full", block_chars=10_000)
    with pytest.raises(OSError, match="writing the gzip output failed"), failing as out:
        for i in range(0, len(noise), 5000):
            out.write(noise[i : i + 5000])


def test_an_export_to_gz_is_renamed_only_when_complete(tmp_path: Path) -> None:
    target = tmp_path / "corpus.jsonl.gz"
    pieces = _pieces(500, seed=3)
    with pytest.raises(RuntimeError), open_text_output(str(target)) as out:
        out.write(pieces[0])
        raise RuntimeError("the export stopped")
    assert not target.exists() and not (tmp_path / "corpus.jsonl.gz.part").exists()
    with open_text_output(str(target)) as out:
        for piece in pieces:
            out.write(piece)
    assert gzip.decompress(target.read_bytes()).decode("utf-8") == "".join(pieces)

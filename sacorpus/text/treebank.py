"""NLTK's Treebank word tokenizer, loaded without the rest of nltk.

Why: importing any part of nltk runs its package ``__init__``, which imports most of nltk (about 20 MB
of modules in every crawl process, 340 of them) and ``scipy.stats`` when scipy is installed (about
80 MB more) - for one class of regular expressions. The tokenizer's module and the four small
modules it imports are loaded here under stand-in parent packages that have no ``__init__`` code,
then dropped from ``sys.modules``, so a later ``import nltk`` (an analysis command) imports nltk whole
as usual. Should nltk's layout change so that this fails, the whole package is imported (scipy kept
out), as before.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import sys
import threading
import types
from functools import lru_cache
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)
_MODULE = "nltk.tokenize.destructive"
_LOCK = threading.Lock()


def _detached_class() -> Any:
    """``NLTKWordTokenizer`` from its own module, nltk's package ``__init__`` files not run."""
    spec = importlib.util.find_spec("nltk")
    if spec is None or spec.origin is None:
        raise ImportError("nltk is not installed")
    root = Path(spec.origin).parent
    for name, path in (("nltk", root), ("nltk.tokenize", root / "tokenize")):
        stand_in = types.ModuleType(name)
        stand_in.__path__ = [str(path)]
        sys.modules[name] = stand_in
    try:
        return importlib.import_module(_MODULE).NLTKWordTokenizer
    finally:
        for name in [n for n in sys.modules if n == "nltk" or n.startswith("nltk.")]:
            del sys.modules[name]


def _whole_package_class() -> Any:
    """``NLTKWordTokenizer`` imported the usual way, with scipy kept out when it is not loaded yet
    (nltk has its own fallback for the collocation test that wants it)."""
    hidden = "scipy" not in sys.modules
    if hidden:
        sys.modules["scipy"] = None  # type: ignore[assignment]  # an import of it fails at once
    try:
        from nltk.tokenize.destructive import NLTKWordTokenizer
    finally:
        if hidden:
            del sys.modules["scipy"]
    return NLTKWordTokenizer


@lru_cache(maxsize=1)
def treebank_tokenizer() -> Any:
    """One ``NLTKWordTokenizer`` for the process."""
    with _LOCK:
        if "nltk" in sys.modules:  # imported whole already: nothing to save
            return _whole_package_class()()
        try:
            return _detached_class()()
        except Exception as exc:  # any failure: the usual import still works
            logger.debug("nltk's tokenizer loaded with the whole package (%s)", exc)
            return _whole_package_class()()


__all__ = ["treebank_tokenizer"]

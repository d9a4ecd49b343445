"""A crawl process loads only what it uses: nltk's tokenizer without the rest of nltk, Redis only
when the crawl is distributed.

Each probe runs in a fresh interpreter, since what a process has imported is process-wide.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

TEXTS = [
    "He said \"it's 5.30 p.m.\" (sic) -- didn't he? I can't; they'll go. Prof. O'Neil's R1,200 cost... [ok]",
    "The minister's spokesperson, Mr. Dlamini, said: 'We won't comment.' See https://example.org/a?b=1.",
    "Parliament's 2026/27 budget: R12.5bn for 'Operation Vulindlela' — and more…",
]


def _probe(code: str, *args: str) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=REPO, capture_output=True, text=True, timeout=120, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


TOKENIZE_PROBE = """
import json, sys
from sacorpus.text.tokenize import tokenize
from sacorpus.text import treebank
texts = json.loads(sys.argv[1])
lean = [tokenize(t, "en").tokens for t in texts]
spans = [list(treebank.treebank_tokenizer().span_tokenize(t)) for t in texts]
loaded = sorted(m for m in sys.modules if m == "nltk" or m.startswith("nltk."))
import nltk  # a later whole import (an analysis command) still works, and tokenizes alike
from nltk.tokenize.destructive import NLTKWordTokenizer
whole = NLTKWordTokenizer()
same = [list(whole.span_tokenize(t)) == s for t, s in zip(texts, spans)]
print(json.dumps({"loaded": loaded, "same": same, "tokens": lean, "classify": hasattr(nltk, "classify")}))
"""


def test_the_treebank_tokenizer_loads_without_the_rest_of_nltk() -> None:
    found = _probe(TOKENIZE_PROBE, json.dumps(TEXTS))
    assert found["loaded"] == []  # nothing of nltk left registered: no stand-in package either
    assert found["same"] == [True] * len(TEXTS)
    assert found["classify"] is True
    tokens = found["tokens"]
    assert isinstance(tokens, list)
    assert tokens[0][tokens[0].index("did") : tokens[0].index("did") + 2] == ["did", "n't"]


def test_a_changed_nltk_layout_falls_back_to_the_whole_package() -> None:
    code = """
import json, sys
from sacorpus.text import treebank
treebank._MODULE = "nltk.tokenize.no_such_module"
tok = treebank.treebank_tokenizer()
print(json.dumps({"tokens": tok.tokenize("They didn't go."), "whole": "nltk.classify" in sys.modules,
                  "scipy": "scipy" in sys.modules}))
"""
    found = _probe(code)
    assert found["tokens"] == ["They", "did", "n't", "go", "."]
    assert found["whole"] is True
    assert found["scipy"] is False  # kept out, as before


def test_a_crawl_on_one_machine_does_not_import_redis() -> None:
    code = """
import json, sys
from scrapy.settings import Settings
from scrapy.utils.misc import load_object
from sacorpus import settings as defaults
addon = load_object("sacorpus.distributed.RedisFrontierAddon")()
settings = Settings()
settings.setmodule(defaults, priority="project")
addon.update_settings(settings)
before = "redis" in sys.modules or "scrapy_redis" in sys.modules
scheduler = load_object("sacorpus.distributed.RedisScheduler")  # the settings' class path still works
print(json.dumps({"before": before, "after": "redis" in sys.modules, "name": scheduler.__name__,
                  "scheduler": settings.get("SCHEDULER")}))
"""
    found = _probe(code)
    assert found == {
        "before": False,
        "after": True,
        "name": "RedisScheduler",
        "scheduler": "sacorpus.frontier.scheduler.ResumableScheduler",
    }


def test_the_spider_loader_imports_no_web_server() -> None:
    """Scrapy's spider loader imports every spider module; the demo spider's site server (aiohttp) is
    imported only when that spider starts it, so a publication's crawl does not carry it."""
    code = """
import json, sys
from scrapy.utils.project import get_project_settings
from sacorpus.spider_loader import PublicationSpiderLoader
loader = PublicationSpiderLoader(get_project_settings())
demo = loader.load("demo")
print(json.dumps({"spiders": len(loader.list()), "demo": demo.name,
                  "aiohttp": sorted(m for m in sys.modules if m == "aiohttp" or m.startswith("sacorpus.demo"))}))
"""
    found = _probe(code)
    assert found["demo"] == "demo"
    assert isinstance(found["spiders"], int) and found["spiders"] > 20
    assert found["aiohttp"] == []

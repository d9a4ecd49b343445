"""The house rules, checked: small modules and functions, layers that import only downwards.

Why a test: the rules in CONTRIBUTING.md hold only while something fails when they are broken. Sizes
are counted in lines: a module's whole file, a function from its ``def`` line to its last line.

``ALLOWED`` may list an offender while its file is being split, with its size that day: such a file
may shrink but not grow, and any other file over the limit fails. Keep it empty.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "sacorpus"
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60

#: offenders allowed for now ("path" or "path::function" -> its size in lines); none are left
ALLOWED: dict[str, int] = {}


def _modules(*roots: Path) -> list[Path]:
    return sorted(p for root in roots for p in root.rglob("*.py") if ".venv" not in p.parts)


def _name(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


def _functions(tree: ast.AST) -> list[tuple[str, int]]:
    """``(qualified name, lines)`` of every function and method, nested ones included."""
    out: list[tuple[str, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    out.append((name, (child.end_lineno or child.lineno) - child.lineno + 1))
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return out


def _imports(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _over(sizes: dict[str, int], limit: int) -> list[str]:
    """Offenders not allowed, or allowed ones that grew."""
    return [
        f"{key}: {size} lines (limit {limit}{', allowed ' + str(ALLOWED[key]) if key in ALLOWED else ''})"
        for key, size in sorted(sizes.items())
        if size > limit and size > ALLOWED.get(key, limit)
    ]


def test_no_module_over_400_lines():
    sizes = {_name(p): len(p.read_text(encoding="utf-8").splitlines()) for p in _modules(PACKAGE)}
    assert not _over(sizes, MAX_MODULE_LINES), "split these modules:\n" + "\n".join(
        _over(sizes, MAX_MODULE_LINES)
    )


def test_no_function_over_60_lines():
    sizes: dict[str, int] = {}
    for path in _modules(PACKAGE):
        for name, lines in _functions(ast.parse(path.read_text(encoding="utf-8"))):
            sizes[f"{_name(path)}::{name}"] = lines
    over = _over(sizes, MAX_FUNCTION_LINES)
    assert not over, "split these functions:\n" + "\n".join(over)


def test_pipelines_are_imported_only_by_pipelines():
    """Commands and benchmarks call sacorpus/text; a pipeline is a thin Scrapy adapter, not a library."""
    wrong = [
        _name(path)
        for path in _modules(PACKAGE, REPO / "benchmarks")
        if PACKAGE / "pipelines" not in path.parents
        and any(
            m == "sacorpus.pipelines" or m.startswith("sacorpus.pipelines.")
            for m in _imports(ast.parse(path.read_text(encoding="utf-8")))
        )
    ]
    assert not wrong, f"import sacorpus.pipelines from outside sacorpus/pipelines: {wrong}"


def test_pure_core_does_not_import_scrapy():
    """sacorpus/text and sacorpus/sources are usable outside a crawl (re-extraction, notebooks)."""
    wrong = [
        _name(path)
        for path in _modules(PACKAGE / "text", PACKAGE / "sources")
        if any(
            m == "scrapy" or m.startswith("scrapy.")
            for m in _imports(ast.parse(path.read_text(encoding="utf-8")))
        )
    ]
    assert not wrong, f"Scrapy imported in the pure core: {wrong}"


def test_the_checks_catch_an_offender():
    """The counting itself: a 61-line function and a Scrapy import are seen."""
    body = "\n".join(f"    x{i} = {i}" for i in range(59))
    tree = ast.parse(f"import scrapy.http\n\ndef long():\n{body}\n    return 0\n")
    assert _functions(tree) == [("long", 61)]
    assert "scrapy.http" in _imports(tree)


def test_every_source_kind_is_registered():
    """A source kind is one file in sacorpus/spiders/sources plus its line in SOURCES: a class that is
    written but not registered would never run."""
    import importlib
    import inspect
    import pkgutil

    import sacorpus.spiders.sources as package
    from sacorpus.spiders.sources import SOURCE_KINDS, SOURCES
    from sacorpus.spiders.sources.base import Source

    defined = set()
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        defined |= {
            cls
            for _, cls in inspect.getmembers(module, inspect.isclass)
            if issubclass(cls, Source) and cls.name and cls.__module__ == module.__name__
        }
    assert defined == set(SOURCES), f"not registered: {defined - set(SOURCES)}"
    assert len({cls.name for cls in SOURCES}) == len(SOURCES), "two source kinds share a name"
    # the kinds ``-a sources=...`` accepts (users' cron lines name them)
    assert set(SOURCE_KINDS) == {
        "feeds",
        "sitemaps",
        "news_sitemaps",
        "robots",
        "start_urls",
        "wayback",
        "comments",
    }


def test_requests_queued_by_earlier_versions_still_load():
    """A JOBDIR queued before source kinds became objects names the old callbacks; they still resolve."""
    from scrapy.utils.request import request_from_dict

    from sacorpus.spiders.demo import DemoSpider

    spider = DemoSpider()
    for name in ("parse_feed", "parse_sitemap", "parse_robots", "parse_section", "parse_cdx"):
        request = request_from_dict({"url": "http://127.0.0.1:1/", "callback": name}, spider=spider)
        assert request.callback == getattr(spider, name)

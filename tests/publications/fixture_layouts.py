"""One synthetic page per publication rule version: the layout that version is dated for, with its furniture.

Why: a rule version earns its place only if a page of its layout comes out wrong without it. Each page
carries the furniture of its platform (captions, teasers, related-link boxes, share bars, comment
prompts, newsletter boxes, credit lines) in the markup that version's rules name, so removing the
version (or one of its entries) lets an ``absent`` string through or loses a byline. The markup is
modelled on each platform's public structure (fixture_specs.py); every sentence is invented and the
story paragraphs are those of fixture_stories.py. A page of a dated layout carries the ``captured``
date a Wayback capture of it would have: that date is how the crawl picks its rule set.
"""

from __future__ import annotations

from fixture_specs import SPECS, e
from fixture_stories import STORIES
from fixture_variants import variant_specs


def page(*, lang: str, title: str, head: str = "", top: str = "", body: str, after: str = "") -> str:
    """A page: <title>, head markup, the site header, the story's header, its container, what follows."""
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<title>{e(title)}</title>
{head}
</head>
<body>
<div id="header"><a href="{{base}}/">Home</a> <a href="{{base}}/news/">News</a> <a href="{{base}}/sport/">Sport</a></div>
<div id="content">
{top}
{body}
{after}
</div>
<div id="footer"><p>Terms and conditions apply to the use of this site.</p></div>
</body>
</html>
"""


def spec_page(slug: str, spec: dict) -> str:
    """The page of one spec: the story's paragraphs in the spec's container, furniture where it says."""
    _path, headline, _author, _when, texts = STORIES[slug][0]
    ps = [f"<p{spec.get('p_attr', '')}>{e(p)}</p>" for p in texts]
    open_, close = spec["container"]
    inner = "\n".join([spec.get("lead", ""), *ps[:2], spec.get("inside", ""), *ps[2:], spec.get("tail", "")])
    h1 = spec.get("h1", "<h1>{h}</h1>").format(h=e(headline))
    top = "\n".join((spec.get("top", ""), h1, spec.get("byline", ""), spec.get("date", "")))
    return page(
        lang=spec.get("html_lang", spec.get("lang", "en")),  # what the markup declares
        title=spec["title"].format(h=headline),
        head=spec.get("head", ""),
        top=top,
        body=f"{spec.get('top_in', '')}{open_}\n{inner}\n{close}",
        after=spec.get("after", ""),
    )


def expectations(slug: str, version: str, spec: dict) -> dict:
    """expected.json's entry for a layout page: the version it proves, its capture date, metadata, and
    the furniture that must stay out of the text (``absent``) and story text that must stay in."""
    _path, headline, author, when, texts = STORIES[slug][0]
    return {
        "version": version,
        "captured": spec.get("captured"),
        "title_clean": headline,
        "authors": spec.get("authors", [author]),
        "published": spec.get("published", when[:10]),
        "language": spec.get("lang", "en"),
        "absent": list(spec["absent"]),
        "present": [texts[0][:60], texts[-1][:60]],
    }


def layout_pages(slug: str) -> list[tuple[str, str, dict]]:
    """(path, html, expectations) of every layout page of ``slug``: one per rule version, and the
    variants of fixture_variants.py."""
    specs = [*SPECS.get(slug, {}).items(), *variant_specs(slug)]
    return [
        (spec["path"], spec_page(slug, spec), expectations(slug, version, spec)) for version, spec in specs
    ]


__all__ = ["layout_pages"]

"""Publication rules are checked when they load, focus the extractor, and are distrusted where they
would empty a page (the page keeps its text; the problem names the rule)."""

from __future__ import annotations

import pytest

from sacorpus.extensions import distrusted_rules
from sacorpus.publications import ElementFilter, PublicationError, RuleSet, parse_publication
from sacorpus.text.extract import extract_article

URL = "https://www.example.co.za/news/2026-11-20-water-restored/"
STORY = [
    "Residents of Soweto queued for hours on Tuesday as the municipality restored water after a week of cuts.",
    "Officials said the pump station had failed when a transformer burnt out during the storm on Sunday night.",
    "The ward councillor said tankers would stay in the area until supply was stable again, possibly for days.",
    "Johannesburg Water said the repaired transformer had been tested overnight and would be monitored hourly.",
]
RAIL = ["Most read: Eskom warns of stage 2 load-shedding", "Most read: Springboks name squad for tour"]


def page(layout_class: str = "layout with-right-rail") -> str:
    story = "".join(f"<p>{s}</p>" for s in STORY)
    rail = "".join(f"<p>{s}</p>" for s in RAIL)
    return (
        f"<html><head><title>Water restored</title></head><body><nav><a href='/'>Home</a></nav>"
        f"<div class='{layout_class}'><div class='main'><article class='story-body'><h1>Water restored</h1>"
        f"{story}</article></div><div class='rail'>{rail}</div></div>"
        "<footer><p>Copyright Example Media 2026. All rights reserved.</p></footer></body></html>"
    )


def test_a_filter_that_would_take_most_prose_is_distrusted_and_named():
    rules = RuleSet(version="arc", filters=(ElementFilter("div", "class", "(rail|newsletter)"),))
    ex = extract_article(page(), URL, rules)
    assert all(s in ex.text for s in STORY)  # "rail" also matches "with-right-rail": the page wrapper
    assert "rules-distrusted:arc:filters[0]" in ex.problems
    assert distrusted_rules({"sacorpus/extract/rules-distrusted:arc:filters[0]": 3}) == [
        "arc:filters[0] on 3 page(s)"
    ]


def test_a_filter_that_takes_furniture_only_is_applied():
    rules = RuleSet(version="v", filters=(ElementFilter("div", "class", "^rail$"),))
    ex = extract_article(page(), URL, rules)
    assert all(s in ex.text for s in STORY) and not any(r in ex.text for r in RAIL)
    assert not [p for p in ex.problems if p.startswith("rules-distrusted")]


def test_body_selectors_focus_the_extractor_on_the_story():
    plain = extract_article(page(), URL, RuleSet())
    focused = extract_article(page(), URL, RuleSet(version="v", body_selectors=("article.story-body",)))
    assert all(s in focused.text for s in STORY)
    assert "Copyright Example Media" not in focused.text and "Most read" not in focused.text
    assert not [p for p in focused.problems if p.startswith("rules-distrusted")]
    assert len(focused.text) <= len(plain.text)


def test_a_body_selector_on_the_wrong_element_loses_to_the_rule_less_text():
    rules = RuleSet(version="old", body_selectors=("div.rail",))  # a layout where the selector names a rail
    ex = extract_article(page(), URL, rules)
    assert all(s in ex.text for s in STORY)
    assert "rules-distrusted:old:body_selectors" in ex.problems


def test_a_body_selector_matching_nothing_changes_nothing():
    ex = extract_article(page(), URL, RuleSet(version="v", body_selectors=("article.b-article-body",)))
    assert all(s in ex.text for s in STORY) and not ex.problems


HEAD = 'name = "X"\nhome = "https://x.org/"\ndomains = ["x.org"]\nlanguages = ["en"]\n[sources]\nfeeds = ["https://x.org/f"]\n[[rules]]\n'


@pytest.mark.parametrize(
    "line,key,problem",
    [
        ("author_selectors = ['.byline[']", "rules[0].author_selectors[0]", "bad CSS selector"),
        ("date_selectors = ['//time[@datetime']", "rules[0].date_selectors[0]", "bad XPath"),
        ("prune_xpaths = ['div[@class=\"x\"']", "rules[0].prune_xpaths[0]", "bad XPath"),
        ("body_selectors = ['article >']", "rules[0].body_selectors[0]", "bad CSS selector"),
        ("filters = [{ tag = 'div x', attribute = 'class' }]", "rules[0].filters[0].tag", "not a tag name"),
        (
            "filters = [{ tag = 'div', attribute = '@class' }]",
            "rules[0].filters[0].attribute",
            "not an attribute",
        ),
    ],
)
def test_bad_selectors_stop_loading_with_file_and_key(line, key, problem):
    with pytest.raises(PublicationError) as err:
        parse_publication("x", HEAD + line + "\n", "publications/x.toml")
    assert str(err.value).startswith(f"publications/x.toml: key '{key}': {problem}")

"""The [render] table of a publication file: checked when it loads, matched against article URLs,
and the renderer chosen from the settings."""

from __future__ import annotations

import pytest
from scrapy.exceptions import UsageError
from scrapy.settings import Settings

from sacorpus import settings as project_settings
from sacorpus.publications import PublicationError, parse_publication
from sacorpus.rendering import configure_rendering, renderer_name
from sacorpus.testing import jssite


def publication(render: str = ""):
    return parse_publication("jsnews", jssite.PUBLICATION + render)


def test_url_patterns_choose_the_pages_a_browser_renders():
    rules = publication(jssite.RENDER_TABLE).render
    assert rules is not None
    assert rules.wants("http://jsnews.sacorpus.invalid/live/3.html")
    assert not rules.wants("http://jsnews.sacorpus.invalid/news/3.html")
    assert rules.wait_for == "article#story p.built" and rules.timeout == 30.0
    everything = publication("[render]\nall = true\nwait = 1.5\n").render
    assert (
        everything is not None
        and everything.wants("http://jsnews.sacorpus.invalid/x")
        and everything.wait == 1.5
    )
    assert publication().render is None


@pytest.mark.parametrize(
    ("table", "key", "says"),
    [
        ("[render]\nwait = 1\n", "render.urls", "url patterns"),
        ("[render]\nurls = ['(']\n", "render.urls[0]", "bad regular expression"),
        ("[render]\nurls = ['/live/']\nall = true\n", "render.all", "not both"),
        ("[render]\nall = true\nwait_for = 'div[['\n", "render.wait_for", "bad CSS selector"),
        ("[render]\nall = true\nwait_for = '//div'\n", "render.wait_for", "CSS selector"),
        ("[render]\nall = true\nwait = 2000\n", "render.wait", "between 0 and 60"),
        ("[render]\nall = true\ntimeout = 0\n", "render.timeout", "between 0 and 300"),
        ("[render]\nall = true\nwiat = 2\n", "render.wiat", "unknown key"),
        ("[render]\nall = 'yes'\n", "render.all", "expected bool"),
    ],
)
def test_a_bad_render_table_is_one_error_naming_the_key(table, key, says):
    with pytest.raises(PublicationError) as err:
        publication(table)
    assert f"'{key}'" in str(err.value) and says in str(err.value)


def settings(**values) -> Settings:
    s = Settings()
    s.setmodule(project_settings, priority="project")
    s.setdict(values, priority="cmdline")
    return s


def test_the_renderer_follows_the_settings():
    assert renderer_name(settings()) == "playwright"
    assert renderer_name(settings(SPLASH_URL="http://splash:8050")) == "splash"
    assert (
        renderer_name(settings(SPLASH_URL="http://splash:8050", SACORPUS_RENDERER="playwright"))
        == "playwright"
    )
    with pytest.raises(UsageError, match="SPLASH_URL"):
        renderer_name(settings(SACORPUS_RENDERER="splash"))
    with pytest.raises(UsageError, match="one of playwright, splash"):
        renderer_name(settings(SACORPUS_RENDERER="selenium"))


def test_nothing_is_installed_for_a_publication_without_render_rules():
    s = settings()
    configure_rendering(s, publication())
    assert "sacorpus.rendering.middleware.RenderMiddleware" not in s.getdict("DOWNLOADER_MIDDLEWARES")
    assert not s.getdict("DOWNLOAD_HANDLERS")
    configure_rendering(s, publication(jssite.RENDER_TABLE))
    assert s.getdict("DOWNLOADER_MIDDLEWARES")["sacorpus.rendering.middleware.RenderMiddleware"] == 570
    assert s.getdict("DOWNLOAD_HANDLERS")["https"].endswith("GuardedPlaywrightHandler")
    launch = s.getdict("PLAYWRIGHT_LAUNCH_OPTIONS")
    assert (
        launch["executable_path"] == "/usr/bin/chromium"
        and "--disable-background-networking" in launch["args"]
    )
    assert s.getint("PLAYWRIGHT_MAX_PAGES_PER_CONTEXT") == 4


def test_a_splash_run_installs_no_browser():
    s = settings(SPLASH_URL="http://splash:8050")
    configure_rendering(s, publication(jssite.RENDER_TABLE))
    assert "sacorpus.rendering.middleware.RenderMiddleware" in s.getdict("DOWNLOADER_MIDDLEWARES")
    assert not s.getdict("DOWNLOAD_HANDLERS")

"""Deploying to a real scrapyd: the egg carries the publication files, and the demo spider runs there.

scrapyd (from PyPI) is started as the README's deployment section configures it (bound to loopback,
with a username and password), on a free port with its own directories; the egg is built with
scrapyd-deploy, uploaded with addversion.json, and the demo crawl is scheduled and awaited. Without
the credentials nothing can be uploaded or scheduled.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import shutil
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
import zipfile
from pathlib import Path

import pytest
from crawlkit import REPO, free_port, stop_process, wait_until_listening

pytestmark = pytest.mark.slow

USER = "sacorpus"
PASSWORD = secrets.token_urlsafe(12)


def _auth(request: urllib.request.Request, credentials: tuple[str, str] | None) -> urllib.request.Request:
    if credentials:
        token = base64.b64encode(":".join(credentials).encode()).decode()
        request.add_header("Authorization", f"Basic {token}")
    return request


def build_egg(dest: Path) -> Path:
    egg = dest / "sacorpus.egg"
    deploy = shutil.which("scrapyd-deploy", path=str(Path(sys.executable).parent)) or "scrapyd-deploy"
    proc = subprocess.run(
        [deploy, "--build-egg", str(egg)], cwd=REPO, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return egg


def test_egg_contains_publications_and_settings_entry_point(tmp_path):
    egg = build_egg(tmp_path)
    with zipfile.ZipFile(egg) as z:
        names = set(z.namelist())
        tomls = {n for n in names if n.startswith("publications/") and n.endswith(".toml")}
        entry_points = z.read("EGG-INFO/entry_points.txt").decode()
    assert "publications/iol.toml" in tomls and "publications/demo.toml" in tomls
    assert len(tomls) >= 13
    assert "settings = sacorpus.settings" in entry_points
    assert "sacorpus/demo/site.py" in names


def _post_multipart(
    url: str,
    fields: dict[str, str],
    files: dict[str, tuple[str, bytes]],
    credentials: tuple[str, str] | None = (USER, PASSWORD),
) -> dict:
    boundary = uuid.uuid4().hex
    body = b""
    for name, value in fields.items():
        body += (f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n').encode()
    for name, (filename, data) in files.items():
        body += (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                "Content-Type: application/octet-stream\r\n\r\n"
            ).encode()
            + data
            + b"\r\n"
        )
    body += f"--{boundary}--\r\n".encode()
    req = urllib.request.Request(
        url, data=body, headers={"Content-Type": f"multipart/form-data; boundary={boundary}"}
    )
    with urllib.request.urlopen(_auth(req, credentials), timeout=60) as resp:
        return json.loads(resp.read())


def _post(
    url: str, fields: list[tuple[str, str]], credentials: tuple[str, str] | None = (USER, PASSWORD)
) -> dict:
    req = urllib.request.Request(url, data=urllib.parse.urlencode(fields).encode())
    with urllib.request.urlopen(_auth(req, credentials), timeout=60) as resp:
        return json.loads(resp.read())


def _get(url: str, credentials: tuple[str, str] | None = (USER, PASSWORD)) -> dict:
    with urllib.request.urlopen(_auth(urllib.request.Request(url), credentials), timeout=60) as resp:
        return json.loads(resp.read())


@pytest.fixture
def scrapyd(tmp_path):
    port = free_port()
    home = tmp_path / "scrapyd"
    home.mkdir()
    (home / "scrapyd.conf").write_text(
        "[scrapyd]\n"
        f"bind_address = 127.0.0.1\nhttp_port = {port}\n"
        f"eggs_dir = {home / 'eggs'}\nlogs_dir = {home / 'logs'}\nitems_dir = {home / 'items'}\n"
        f"dbs_dir = {home / 'dbs'}\njobs_to_keep = 5\nmax_proc = 2\npoll_interval = 0.5\n"
        f"username = {USER}\npassword = {PASSWORD}\n"
    )
    exe = shutil.which("scrapyd", path=str(Path(sys.executable).parent)) or "scrapyd"
    env = {k: v for k, v in os.environ.items() if k != "MONGO_URI"}
    proc = subprocess.Popen([exe], cwd=home, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_listening(port, proc, "scrapyd", 60)
        assert _get(f"{base}/daemonstatus.json")["status"] == "ok"
        yield base, home
    finally:
        stop_process(proc, timeout=20)


def test_scrapyd_refuses_uploads_and_schedules_without_credentials(scrapyd, tmp_path):
    base, home = scrapyd
    for call in (
        lambda creds: _post_multipart(
            f"{base}/addversion.json", {"project": "x", "version": "1"}, {"egg": ("x.egg", b"PK")}, creds
        ),
        lambda creds: _post(f"{base}/schedule.json", [("project", "sacorpus"), ("spider", "demo")], creds),
        lambda creds: _get(f"{base}/listprojects.json", creds),
    ):
        for creds in (None, (USER, "not-the-password")):
            with pytest.raises(urllib.error.HTTPError) as refused:
                call(creds)
            assert refused.value.code == 401
    assert not (home / "eggs").exists() or not any((home / "eggs").rglob("*.egg"))


def test_demo_crawl_runs_on_scrapyd(scrapyd, tmp_path):
    base, home = scrapyd
    egg = build_egg(tmp_path)
    added = _post_multipart(
        f"{base}/addversion.json",
        {"project": "sacorpus", "version": "1"},
        {"egg": ("sacorpus.egg", egg.read_bytes())},
    )
    assert added["status"] == "ok", added
    assert added["spiders"] >= 13
    spiders = _get(f"{base}/listspiders.json?project=sacorpus")["spiders"]
    assert {"demo", "iol", "mg", "news24"} <= set(spiders)
    db = tmp_path / "scrapyd-corpus.sqlite"
    job = _post(
        f"{base}/schedule.json",
        [
            ("project", "sacorpus"),
            ("spider", "demo"),
            ("setting", f"SACORPUS_SQLITE_PATH={db}"),
            ("setting", f"SACORPUS_JOBDIR_ROOT={tmp_path / 'jobs'}"),
            ("setting", "CLOSESPIDER_ITEMCOUNT=8"),
        ],
    )
    assert job["status"] == "ok", job
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        jobs = _get(f"{base}/listjobs.json?project=sacorpus")
        if any(j["id"] == job["jobid"] for j in jobs["finished"]):
            break
        time.sleep(1)
    else:
        pytest.fail("the scheduled demo crawl did not finish in time")
    log = next((home / "logs" / "sacorpus" / "demo").glob("*.log")).read_text()
    assert "sacorpus crawl summary" in log, log[-3000:]
    with sqlite3.connect(db) as conn:
        (n,) = conn.execute("select count(*) from articles").fetchone()
    assert n >= 8, log[-3000:]


def _wait_finished(base: str, jobid: str, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        jobs = _get(f"{base}/listjobs.json?project=sacorpus")
        if any(j["id"] == jobid for j in jobs["finished"]):
            return
        time.sleep(1)
    pytest.fail("the scheduled crawl did not finish in time")


def test_scrapyd_setting_mongo_uri_stores_in_mongodb(scrapyd, tmp_path, mongo_server):
    """scrapyd's ``setting=MONGO_URI=...`` selects MongoDB (it used to be ignored for SQLite)."""
    from pymongo import MongoClient

    base, home = scrapyd
    egg = build_egg(tmp_path)
    added = _post_multipart(
        f"{base}/addversion.json",
        {"project": "sacorpus", "version": "1"},
        {"egg": ("sacorpus.egg", egg.read_bytes())},
    )
    assert added["status"] == "ok", added
    database = f"{mongo_server.database}_scrapyd"
    db = tmp_path / "not-used.sqlite"
    job = _post(
        f"{base}/schedule.json",
        [
            ("project", "sacorpus"),
            ("spider", "demo"),
            ("setting", f"MONGO_URI={mongo_server.uri}"),
            ("setting", f"MONGO_DATABASE={database}"),
            ("setting", f"SACORPUS_SQLITE_PATH={db}"),
            ("setting", f"SACORPUS_JOBDIR_ROOT={tmp_path / 'jobs'}"),
        ],
    )
    assert job["status"] == "ok", job
    _wait_finished(base, job["jobid"])
    log = next((home / "logs" / "sacorpus" / "demo").glob("*.log")).read_text()
    client: MongoClient = MongoClient(mongo_server.uri, serverSelectionTimeoutMS=5000)
    try:
        assert client[database]["articles"].count_documents({"publication": "demo"}) >= 6, log[-3000:]
        (health,) = client[database]["run_health"].find({"publication": "demo"})
        assert health["articles_new"] >= 6 and health["failures"] == [], health
    finally:
        client.drop_database(database)
        client.close()
    assert not db.exists(), "articles went to SQLite although setting=MONGO_URI was given"

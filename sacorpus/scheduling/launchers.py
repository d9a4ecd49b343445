"""Where a scheduled crawl runs: a ``scrapy crawl`` subprocess on this machine, or a scrapyd job.

Both answer the same four questions for the scheduler: start a crawl, has it finished (and how), is the
publication already running (scrapyd also runs jobs others scheduled), and stop it (ask, then force).
"""

from __future__ import annotations

import base64
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sacorpus.redact import redact


class LaunchError(Exception):
    """A crawl could not be started or asked about (one line, secrets masked)."""


@dataclass
class Job:
    slug: str
    ident: str  # process id or scrapyd job id
    started: float  # real (monotonic) time
    process: subprocess.Popen[bytes] | None = None
    stop_asked: float | None = None  # real time the crawl was asked to stop
    extra: dict[str, Any] = field(default_factory=dict)


def setting_args(settings: Mapping[str, str]) -> list[str]:
    return [arg for name, value in settings.items() for arg in ("-s", f"{name}={value}")]


class LocalLauncher:
    """``python -m scrapy crawl <slug>`` subprocesses in the scheduler's working directory."""

    remote = False

    def __init__(self, settings: Mapping[str, str], log_dir: str | None = None) -> None:
        self.settings = dict(settings)
        self.log_dir = log_dir

    def describe(self) -> str:
        return "subprocesses on this machine"

    def start(self, slug: str, now: float) -> Job:
        cmd = [sys.executable, "-m", "scrapy", "crawl", slug, *setting_args(self.settings)]
        out: Any = None  # the scheduler's own output (the journal under systemd)
        if self.log_dir:
            os.makedirs(self.log_dir, exist_ok=True)
            out = open(os.path.join(self.log_dir, f"{slug}.log"), "ab")  # noqa: SIM115 (kept by the child)
        try:
            # a session of its own: Ctrl-C at the terminal reaches the scheduler only, which asks each
            # crawl to stop once (a second signal would make Scrapy stop uncleanly)
            proc = subprocess.Popen(
                cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True
            )
        except OSError as exc:
            raise LaunchError(f"cannot start scrapy crawl {slug}: {exc}") from None
        finally:
            if out is not None:
                out.close()
        return Job(slug, str(proc.pid), now, process=proc)

    def finished(self, job: Job) -> tuple[bool, str] | None:
        """None while running; else (succeeded, how it ended)."""
        assert job.process is not None
        code = job.process.poll()
        if code is None:
            return None
        if code < 0:
            return False, f"killed by signal {-code}"
        return code == 0, f"exit status {code}"

    def running_elsewhere(self, slugs: Sequence[str]) -> set[str]:
        return set()

    def stop(self, job: Job, force: bool) -> None:
        assert job.process is not None
        if job.process.poll() is None:
            job.process.send_signal(signal.SIGKILL if force else signal.SIGTERM)


def split_credentials(url: str, user: str | None, password: str | None) -> tuple[str, str | None]:
    """The URL without credentials and the Basic ``Authorization`` value (from the URL or the options)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise LaunchError(f"--scrapyd {redact(url)}: not an http(s) URL")
    user = user or (urllib.parse.unquote(parts.username) if parts.username else None)
    password = password or (urllib.parse.unquote(parts.password) if parts.password else None)
    netloc = parts.hostname + (f":{parts.port}" if parts.port else "")
    bare = urllib.parse.urlunsplit((parts.scheme, netloc, parts.path.rstrip("/"), "", ""))
    if not user:
        return bare, None
    token = base64.b64encode(f"{user}:{password or ''}".encode()).decode("ascii")
    return bare, f"Basic {token}"


class ScrapydLauncher:
    """Jobs on a scrapyd server: ``schedule.json``, ``listjobs.json``, ``cancel.json``."""

    remote = True

    def __init__(
        self, url: str, project: str, settings: Mapping[str, str], auth: str | None, timeout: float = 30
    ) -> None:
        self.url, self.project, self.auth, self.timeout = url, project, auth, timeout
        self.settings = dict(settings)
        self._listed: tuple[float, dict[str, list[dict[str, Any]]]] | None = None

    def describe(self) -> str:
        return f"scrapyd at {self.url} (project {self.project})"

    def _call(self, endpoint: str, fields: list[tuple[str, str]] | None = None) -> dict[str, Any]:
        url = f"{self.url}/{endpoint}"
        data = None
        if fields is None:
            url += "?" + urllib.parse.urlencode({"project": self.project})
        else:
            data = urllib.parse.urlencode([("project", self.project), *fields]).encode()
        request = urllib.request.Request(url, data=data)
        if self.auth:
            request.add_header("Authorization", self.auth)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as resp:
                answer = json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            raise LaunchError(f"scrapyd {endpoint}: HTTP {exc.code} {exc.reason}") from None
        except (OSError, ValueError) as exc:
            raise LaunchError(f"scrapyd {endpoint}: {redact(str(exc))}") from None
        if not isinstance(answer, dict) or answer.get("status") != "ok":
            message = answer.get("message") if isinstance(answer, dict) else answer
            raise LaunchError(f"scrapyd {endpoint}: {redact(str(message))[:300]}")
        return answer

    def start(self, slug: str, now: float) -> Job:
        fields = [("spider", slug), *(("setting", f"{k}={v}") for k, v in self.settings.items())]
        answer = self._call("schedule.json", fields)
        self._listed = None  # the lists changed
        return Job(slug, str(answer.get("jobid")), now)

    def _jobs(self) -> dict[str, list[dict[str, Any]]]:
        """scrapyd's job lists, asked at most once a second (one answer serves every running job)."""
        now = time.monotonic()
        if self._listed is None or now - self._listed[0] > 1.0:
            answer = self._call("listjobs.json")
            jobs = {state: list(answer.get(state) or []) for state in ("pending", "running", "finished")}
            self._listed = (now, jobs)
        return self._listed[1]

    def finished(self, job: Job) -> tuple[bool, str] | None:
        jobs = self._jobs()
        if any(j.get("id") == job.ident for j in jobs["pending"] + jobs["running"]):
            return None
        done = next((j for j in jobs["finished"] if j.get("id") == job.ident), None)
        if done is None:  # finished longer ago than scrapyd keeps (jobs_to_keep)
            return True, "finished (no longer listed by scrapyd; no exit status)"
        code = done.get("exitcode", done.get("exit_code"))
        if code is None:
            return True, "finished (scrapyd reports no exit status)"
        return code == 0, f"exit status {code}"

    def running_elsewhere(self, slugs: Sequence[str]) -> set[str]:
        jobs = self._jobs()
        return {str(j.get("spider")) for j in jobs["pending"] + jobs["running"]} & set(slugs)

    def stop(self, job: Job, force: bool) -> None:
        # scrapyd's cancel sends SIGINT first and SIGTERM when asked again (or the signal given)
        fields = [("job", job.ident)] + ([("signal", "KILL")] if force else [])
        self._call("cancel.json", fields)

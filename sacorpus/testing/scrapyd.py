"""A real scrapyd on loopback with a username and password, and the project's egg deployed to it.

Configured as the README's deployment section says (bound to 127.0.0.1, basic auth), on a free port with
its own directories under ``home``; stopped for sure by :meth:`ScrapydServer.stop`.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import urllib.parse
import urllib.request
import uuid
from pathlib import Path
from typing import Any

from sacorpus.testing.servers import free_port, stop_process, wait_until_listening


def build_egg(repo: Path, dest: Path) -> Path:
    """The project's egg, built by scrapyd-deploy as a user deploying would."""
    egg = dest / "sacorpus.egg"
    deploy = shutil.which("scrapyd-deploy", path=str(Path(sys.executable).parent)) or "scrapyd-deploy"
    proc = subprocess.run(
        [deploy, "--build-egg", str(egg)], cwd=repo, capture_output=True, text=True, timeout=300
    )
    if proc.returncode != 0:
        raise RuntimeError(f"scrapyd-deploy --build-egg failed:\n{proc.stdout}{proc.stderr}"[-3000:])
    return egg


class ScrapydServer:
    def __init__(self, home: Path, user: str, password: str) -> None:
        self.home, self.user, self.password = home, user, password
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ScrapydServer:
        home = self.home
        home.mkdir(parents=True, exist_ok=True)
        (home / "scrapyd.conf").write_text(
            "[scrapyd]\n"
            f"bind_address = 127.0.0.1\nhttp_port = {self.port}\n"
            f"eggs_dir = {home / 'eggs'}\nlogs_dir = {home / 'logs'}\nitems_dir = {home / 'items'}\n"
            f"dbs_dir = {home / 'dbs'}\njobs_to_keep = 5\nmax_proc = 2\npoll_interval = 0.5\n"
            f"username = {self.user}\npassword = {self.password}\n"
        )
        exe = shutil.which("scrapyd", path=str(Path(sys.executable).parent)) or "scrapyd"
        env = {k: v for k, v in os.environ.items() if k != "MONGO_URI"}
        log = home / "scrapyd.out"
        with log.open("wb") as sink:
            self.proc = subprocess.Popen([exe], cwd=home, env=env, stdout=sink, stderr=subprocess.STDOUT)
        wait_until_listening(self.port, self.proc, "scrapyd", 60, log)
        return self

    def stop(self) -> None:
        if self.proc is not None:
            stop_process(self.proc, timeout=20)
            self.proc = None

    def _request(self, endpoint: str, data: bytes | None, headers: dict[str, str]) -> dict[str, Any]:
        token = base64.b64encode(f"{self.user}:{self.password}".encode()).decode()
        request = urllib.request.Request(f"{self.url}/{endpoint}", data=data, headers=headers)
        request.add_header("Authorization", f"Basic {token}")
        with urllib.request.urlopen(request, timeout=60) as resp:
            answer: dict[str, Any] = json.loads(resp.read())
        return answer

    def get(self, endpoint: str) -> dict[str, Any]:
        return self._request(endpoint, None, {})

    def deploy(self, egg: Path, project: str = "sacorpus", version: str = "1") -> dict[str, Any]:
        boundary = uuid.uuid4().hex
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
            for k, v in (("project", project), ("version", version))
        ]
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="egg"; filename="sacorpus.egg"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n".encode()
            + egg.read_bytes()
            + b"\r\n"
        )
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
        return self._request("addversion.json", body, headers)

    def jobs(self, project: str = "sacorpus") -> dict[str, Any]:
        return self.get("listjobs.json?" + urllib.parse.urlencode({"project": project}))

    def __enter__(self) -> ScrapydServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

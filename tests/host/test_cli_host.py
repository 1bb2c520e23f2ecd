"""`companion host` serves a session without the UI and prints the join link."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request

from tests.conftest import ROOT

LOOPBACK = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never via a proxy


def companion(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_host_prints_the_join_link_and_serves_the_page(tmp_path):
    env = {**os.environ, "COMPANION_HOME": str(tmp_path)}
    assert companion("new", "tiny", "--name", "phones", env=env).returncode == 0
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "host", "phones", "--address", "127.0.0.1",
         "--port", "0", "--plain", "--json", "--for", "30"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        printed = json.loads(process.stdout.readline())
        assert printed["url"].startswith("http://127.0.0.1:") and printed["session"] == "phones"
        with LOOPBACK.open(printed["url"], timeout=10) as page:
            assert page.status == 200 and b"Table Companion" in page.read()
        wrong = printed["url"].split("?t=")[0] + "?t=wrong"
        try:
            LOOPBACK.open(wrong, timeout=10)
            raise AssertionError("a wrong token was let in")
        except urllib.error.HTTPError as refused:
            assert refused.code == 403 and b"not for this table" in refused.read()
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_host_refuses_an_address_off_the_local_network(tmp_path):
    env = {**os.environ, "COMPANION_HOME": str(tmp_path)}
    assert companion("new", "tiny", env=env).returncode == 0
    result = companion("host", "--address", "8.8.8.8", "--json", env=env)
    assert result.returncode == 2
    assert "not on the local network" in result.stderr

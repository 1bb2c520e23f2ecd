"""Browser tests need Debian's chromium and chromium-driver (scripts/system-packages.sh)."""

from __future__ import annotations

import pytest

from tests.browser.harness import HostThread, have_browser
from tests.host.tablegame import TableTiny, new_session


@pytest.fixture(scope="session", autouse=True)
def _browser_installed():
    assert have_browser(), (
        "the browser tests need /usr/bin/chromium and /usr/bin/chromedriver: "
        "run scripts/system-packages.sh (apt-get install -y chromium chromium-driver)"
    )


@pytest.fixture
def table(tmp_path):
    """The tablet's host over a fresh Tiny game (test_lan.py has its own, on the LAN)."""
    host = HostThread(lambda: new_session(tmp_path, TableTiny()))
    yield host
    host.close()

"""Browser tests need Debian's chromium and chromium-driver (scripts/system-packages.sh)."""

from __future__ import annotations

import pytest

from tests.browser.harness import have_browser


@pytest.fixture(scope="session", autouse=True)
def _browser_installed():
    assert have_browser(), (
        "the browser tests need /usr/bin/chromium and /usr/bin/chromedriver: "
        "run scripts/system-packages.sh (apt-get install -y chromium chromium-driver)"
    )

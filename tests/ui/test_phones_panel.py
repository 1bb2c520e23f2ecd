"""The Phones panel hosts the open game on the app's own loop: a QR code, the phones that
joined, and Remove that takes a phone's pass back."""

from __future__ import annotations

import pytest

from tests.ui.probes import run_probe

pytestmark = pytest.mark.ui


def test_phones_join_from_the_panel_answer_a_roll_and_can_be_removed(tmp_path):
    out = run_probe("tests.ui.phones_probe", tmp_path, timeout=120)
    assert out["link"].startswith("http://127.0.0.1:") and "?t=" in out["link"]
    assert out["qr"] is True
    assert out["listed"] == ["Dana"]
    assert out["answered"] is True and out["score"] == 4
    assert "took this phone out" in out["removed"] and out["after_remove"] == 0
    assert out["stopped"] is True
    # served as at a table: HTTPS with the tablet's own certificate, the QR code the door
    assert out["door_link"].startswith("http://127.0.0.1:") and "/#t=" in out["door_link"]
    assert out["fingerprint"] in out["door_status"]  # compared by eye with the phone's
    assert out["door_page"] == 200 and out["https_page"] == 200

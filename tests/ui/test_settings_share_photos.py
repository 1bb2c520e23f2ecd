"""The kept dice photos carried off the tablet by touch, from Settings (issue 28): the link
the screen shows downloads every kept photo, its certificate's code is said to compare,
and the link closes when the table stops sharing or leaves Settings."""

from __future__ import annotations

import pytest

from tests.ui.probes import run_probe

pytestmark = pytest.mark.ui


def test_settings_share_the_kept_photos_with_a_computer_until_stopped(tmp_path):
    out = run_probe("tests.ui.photo_share_probe", tmp_path, timeout=180)
    assert out["button_before"] == "Share the photos with a computer"
    assert out["button_sharing"] == "Stop sharing the photos"
    assert out["site"].startswith("https://127.0.0.1:") and "?" not in out["site"]
    assert out["asked"] == 200  # the address typed alone asks for the pass
    assert out["typed_fits"] == {"landscape": True, "portrait": True, "phone": True}
    assert out["code_shown"] and out["qr"]  # the certificate's code, to compare by eye
    assert "The pass works for 10 minutes, while Settings shows it." in out["words"]
    assert out["delete_disabled"]  # the photos being downloaded are not deleted under it
    assert out["page"] == 200
    assert out["zipped"] == ["dice-photos/table_00001.jpg", "dice-photos/table_00002.jpg"]
    assert out["button_after"] == "Share the photos with a computer"
    assert out["after_stop"] == "closed" and out["after_leave"] == "closed"

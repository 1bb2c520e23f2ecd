"""Issue 26 part 5: the app, the scanner and the dice with only the packages a
python-for-android build carries.  Each test starts a child interpreter whose imports of
zxing-cpp and bleak fail as a missing package's would (`tests/android/profile.py`), and
plays there what a player does: a roll answered on the keypad and by the simulated tray
through its port, a card held up to the camera (pyzbar and OpenCV read it), and a BLE
die asked for (refused in words).  The block never leaks into this process."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from tests.android.profile import BLOCKED, refused, run_pytest, run_python

pytestmark = pytest.mark.android_profile


def test_the_profile_refuses_zxing_and_bleak_in_the_child_only(tmp_path):
    log = tmp_path / "refused.log"
    code = (
        "import importlib\n"
        "for name in ('zxingcpp', 'bleak', 'bleak.backends.client', 'bleak_retry_connector'):\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ImportError as exc:\n"
        "        print('refused', name, exc.name)\n"
        "    else:\n"
        "        print('imported', name)\n"
        "import cv2, numpy, pyzbar.pyzbar, kivy, msgspec, yaml\n"
        "print('recipes ok')\n"
    )
    proc = run_python(code, log, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split("\n")[:4] == [
        "refused zxingcpp zxingcpp",
        "refused bleak bleak",
        "refused bleak.backends.client bleak",  # its parent package is refused first
        "refused bleak_retry_connector bleak_retry_connector",
    ]
    assert "recipes ok" in proc.stdout
    assert refused(log) == set(BLOCKED)
    assert importlib.util.find_spec("bleak") is not None  # this process: untouched
    assert not any(type(f).__name__ == "AndroidProfile" for f in sys.meta_path)


def test_ble_dice_are_refused_in_words_and_the_tray_and_keypad_stay(tmp_path):
    """`make_source` for a BLE kind says what to use instead; the tray over USB and the
    simulated tray need no bleak."""
    log = tmp_path / "refused.log"
    code = (
        "from hardware.sources import SourceUnavailable, make_source\n"
        "for spec in ('pixels', 'godice', 'tray-ble'):\n"
        "    try:\n"
        "        make_source(spec)\n"
        "    except SourceUnavailable as exc:\n"
        "        print(spec, '|', exc)\n"
        "print(type(make_source('serial:/dev/null')).__name__)\n"
        "import hardware.simulated, companion.table.dice_answers, hardware.virtual\n"
        "print('tray ok')\n"
    )
    proc = run_python(code, log, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert [line.split(" | ")[0] for line in lines[:3]] == ["pixels", "godice", "tray-ble"]
    for line in lines[:3]:
        assert line.endswith(
            "this build of the app has no Bluetooth LE support (the bleak library is not "
            "installed): use the dice tray over USB, or enter rolls on the keypad"
        )
    assert lines[3:] == ["SerialTraySource", "tray ok"]
    assert refused(log) == {"bleak"}  # asked for, refused, gone on without


def test_a_keypad_roll_and_a_tray_roll_play_without_zxing_or_bleak(tmp_path):
    """The whole evening by touch (keypad rolls, undo, a correction, a card tapped, the
    app restarted) and the simulated tray answering a roll through its port, run
    under the profile: the app never reaches for either package."""
    log = tmp_path / "refused.log"
    proc = run_pytest(
        [
            "tests/ui/test_app_flow.py::TestEvening::test_new_game_keypad_undo_correct_draw_and_resume",
            "tests/ui/test_dice.py::test_simulated_tray_answers_a_roll",
        ],
        log,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "2 passed" in proc.stdout
    assert refused(log) == set()


def test_a_card_held_up_is_read_by_pyzbar_and_opencv(tmp_path):
    """A card's photograph before the camera, the Cards panel's scanner reading it and
    answering the draw, with zxing-cpp refused: OpenCV's and pyzbar's stages read it."""
    log = tmp_path / "refused.log"
    proc = run_pytest(
        [
            "tests/ui/test_scanner_and_packs.py::TestScanner::test_a_card_held_up_answers_the_draw_once"
        ],
        log,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert refused(log) <= {"zxingcpp"}

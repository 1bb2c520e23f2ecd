"""Runs the firmware's tests under MicroPython (unix port) or CPython and exits 1 unless
every test passed: MicroPython's unittest.main() exits 0 even when tests fail, so the
result's wasSuccessful() decides here.

    MICROPYPATH=.:firmware/tests/vendor:.frozen micropython firmware/tests/run.py
    python -m firmware.tests.run
"""

# MicroPython runs this file too: %-formatting stands in for what it lacks.
# ruff: noqa: UP031

import sys
import unittest

MODULES = (
    "firmware.tests.test_common",
    "firmware.tests.test_tray",
    "firmware.tests.test_hw",
    "firmware.tests.test_central",
)


def run(names):
    ok = True
    total = 0
    for name in names:
        __import__(name)
        module = sys.modules[name]
        if sys.implementation.name == "micropython":
            result = unittest.main(module)
        else:
            suite = unittest.defaultTestLoader.loadTestsFromModule(module)
            result = unittest.TextTestRunner(verbosity=1).run(suite)
        total += result.testsRun
        ok = ok and result.wasSuccessful() and result.testsRun > 0
    print(
        "firmware tests: %d run under %s, %s"
        % (total, sys.implementation.name, "all passed" if ok else "FAILED")
    )
    return ok


if __name__ == "__main__":
    sys.exit(0 if run(sys.argv[1:] or MODULES) else 1)

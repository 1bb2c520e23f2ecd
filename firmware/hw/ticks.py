"""MicroPython's millisecond ticks, with a CPython stand-in so the same code runs in the
app's simulated tray."""

import time

if hasattr(time, "ticks_ms"):
    ticks_ms = time.ticks_ms
    ticks_diff = time.ticks_diff  # type: ignore[attr-defined]  # MicroPython's time
    ticks_add = time.ticks_add  # type: ignore[attr-defined]
else:

    def ticks_ms():
        return int(time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, b):
        return a + b

"""MicroPython firmware for the dice tray and the home-made smart die.

Everything under `firmware/` imports as `firmware.<part>` both on the device (copied to
`/lib/firmware/`) and under CPython, so the app and the firmware share one codec.
"""

"""The thin hardware layer: each class takes the `machine` or `bluetooth` module (or a
fake of it) as an argument, so the tests run it under MicroPython's unix port."""

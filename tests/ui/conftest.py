"""UI tests: Kivy must not probe for X clipboard tools on a machine with no display."""

import os

os.environ.setdefault("KIVY_CLIPBOARD", "dummy")

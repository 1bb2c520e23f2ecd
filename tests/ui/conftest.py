import os
os.environ.setdefault("KIVY_CLIPBOARD", "dummy")  # no xclip/xsel probing headless

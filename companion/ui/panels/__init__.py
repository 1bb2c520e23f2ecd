"""The session frame's panels, each a .py + .kv pair."""

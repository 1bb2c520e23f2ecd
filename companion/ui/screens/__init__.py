"""One screen per module, each with its .kv beside it."""

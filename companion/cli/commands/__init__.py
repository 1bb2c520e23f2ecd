"""One module per group of sub-commands; each exposes `register(subparsers)`."""

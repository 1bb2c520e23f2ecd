#!/usr/bin/env bash
# What `make run` says on a machine with no display (over SSH, in a container): only
# commands that work here, spelled with the venv's own `companion` so they run as printed.
venv=${1:-.venv}
cat <<MSG
There is no display here, so the app cannot open a window.
To look at it anyway, render a screen to a PNG (no display needed):
  $venv/bin/companion app --screenshot home.png
  $venv/bin/companion app --screenshot session.png --screen session   (also: new, settings)
Or play from the command line: README.md, "Command line", walks through a game.
To open the app itself, run \`make run\` on a machine with a screen.
MSG

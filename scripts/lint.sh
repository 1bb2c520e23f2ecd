#!/usr/bin/env bash
# `make lint`: every check runs, even after one fails, so one run lists everything to fix.
# ruff (lint and format), mypy (strict for the rules and the adapters, see pyproject.toml)
# and the import layers (import-linter, the contracts in pyproject.toml).
set -uo pipefail
cd "$(dirname "$0")/.."
bin=.venv/bin
failed=()
step() {
  local name=$1
  shift
  echo "== $name: $*"
  "$@" || failed+=("$name")
}
step "ruff check" "$bin/ruff" check .
step "ruff format" "$bin/ruff" format --check .
step "mypy" "$bin/mypy"
step "import layers" "$bin/lint-imports" --no-cache
if [ ${#failed[@]} -gt 0 ]; then
  echo "make lint: failed: ${failed[*]}" >&2
  exit 1
fi
echo "make lint: all clean"

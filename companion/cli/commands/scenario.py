"""`companion scenario run FILE_OR_DIR...`: exit 0 all held, 1 a failure, 2 an invalid file."""

from __future__ import annotations

import argparse

from companion.scenario.runner import run_paths


def cmd_run(args: argparse.Namespace) -> int:
    outcomes = run_paths(args.paths)
    if not outcomes:
        print("no scenario files found")
        return 2
    for o in outcomes:
        if o.invalid:
            print(f"INVALID {o.invalid}")
        elif o.failures:
            for f in o.failures:
                print(f"FAIL {f}")
        elif args.verbose:
            print(f"ok   {o.path}")
    passed = sum(o.passed for o in outcomes)
    invalid = sum(bool(o.invalid) for o in outcomes)
    failed = len(outcomes) - passed - invalid
    print(f"scenarios: {passed} held, {failed} failed, {invalid} invalid")
    return max(o.code for o in outcomes)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("scenario", help="run scenario files (the rules' acceptance tests)")
    ss = p.add_subparsers(dest="scenario_command", metavar="ACTION")
    ss.required = True
    r = ss.add_parser("run", help="run scenario files or folders of them")
    r.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    r.add_argument("-v", "--verbose", action="store_true")
    r.set_defaults(func=cmd_run)

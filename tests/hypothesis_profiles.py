"""The two ways the property tests run: the same examples every time, or a long random hunt.

`make test` must pass or fail the same way on every run and every machine, so by default
hypothesis derandomizes (each test's examples come from its own name, not from a random
seed), keeps no example database (a failure found once must not change the next run), and
never fails on timing (no deadline, no "too slow" health check: the build machine is
shared and its speed is not part of any rule).  `make fuzz` asks for the opposite: fresh
examples from a seed it prints, and many more of them.

A test's own `@settings(max_examples=..., deadline=...)` is fixed when its module is
imported and would beat the profile, so `apply_profile_to_items` lays the profile's
non-negotiable values over each collected hypothesis test.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from hypothesis import HealthCheck, settings

DETERMINISTIC = "deterministic"
FUZZ = "fuzz"
# Health checks that depend on the machine's speed, not on the test.
TIMING_CHECKS = (HealthCheck.too_slow,)


def fuzz_scale() -> int:
    """How many times each test's own number of examples `make fuzz` runs (FUZZ_SCALE)."""
    raw = os.environ.get("FUZZ_SCALE", "10")
    try:
        scale = int(raw)
    except ValueError:
        raise SystemExit(f"FUZZ_SCALE must be a whole number, not {raw!r}") from None
    if scale < 1:
        raise SystemExit(f"FUZZ_SCALE must be 1 or more, not {scale}")
    return scale


def register_profiles() -> None:
    """`fuzz` sets no max_examples: `overrides` scales every test's own number, once."""
    settings.register_profile(
        DETERMINISTIC,
        derandomize=True,
        database=None,
        deadline=None,
        print_blob=True,
        suppress_health_check=TIMING_CHECKS,
    )
    settings.register_profile(
        FUZZ,
        derandomize=False,
        database=None,
        deadline=None,
        print_blob=True,
        suppress_health_check=TIMING_CHECKS,
    )


def load_profile(name: str) -> None:
    register_profiles()
    if name not in (DETERMINISTIC, FUZZ):
        raise SystemExit(f"HYPOTHESIS_PROFILE must be {DETERMINISTIC!r} or {FUZZ!r}, not {name!r}")
    settings.load_profile(name)


def overrides(current: settings, profile: str) -> dict[str, Any]:
    """What the profile insists on for one test, whatever the test's own settings say."""
    suppressed = list(dict.fromkeys([*current.suppress_health_check, *TIMING_CHECKS]))
    common: dict[str, Any] = {
        "database": None,
        "deadline": None,
        "suppress_health_check": suppressed,
    }
    if profile == FUZZ:
        return {**common, "derandomize": False, "max_examples": current.max_examples * fuzz_scale()}
    return {**common, "derandomize": True}


def apply_profile(test: Any, profile: str) -> None:
    """Lay the profile over one hypothesis test function (once, however many items share it)."""
    function = getattr(test, "__func__", test)
    current = getattr(function, "_hypothesis_internal_use_settings", None)
    if current is None or getattr(function, "_companion_profile", None) == profile:
        return
    function._hypothesis_internal_use_settings = settings(current, **overrides(current, profile))
    function._companion_profile = profile


def apply_profile_to_items(items: Iterable[Any]) -> None:
    profile = settings.get_current_profile_name()
    for item in items:
        test = getattr(item, "obj", None)
        if getattr(test, "is_hypothesis_test", False):
            apply_profile(test, profile)

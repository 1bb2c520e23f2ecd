"""`make test` gives the same answer every run: the property tests' profiles do what they say."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hypothesis_profiles import DETERMINISTIC, FUZZ, apply_profile, fuzz_scale


def a_property_test(seen: list[int]):
    @settings(max_examples=7, deadline=200, suppress_health_check=[HealthCheck.filter_too_much])
    @given(st.integers())
    def check(n: int) -> None:
        seen.append(n)

    return check


def test_the_suite_runs_the_deterministic_profile_unless_asked():
    expected = os.environ.get("HYPOTHESIS_PROFILE", DETERMINISTIC)
    assert settings.get_current_profile_name() == expected


def test_a_deterministic_test_draws_the_same_examples_twice():
    first: list[int] = []
    second: list[int] = []
    for seen in (first, second):
        test = a_property_test(seen)
        apply_profile(test, DETERMINISTIC)
        test()
    assert first and first == second


def test_the_profile_beats_a_tests_own_timing_settings():
    test = a_property_test([])
    apply_profile(test, DETERMINISTIC)
    applied = test._hypothesis_internal_use_settings
    assert applied.derandomize and applied.database is None and applied.deadline is None
    assert HealthCheck.too_slow in applied.suppress_health_check
    assert HealthCheck.filter_too_much in applied.suppress_health_check  # the test's own kept
    assert applied.max_examples == 7


def test_fuzz_multiplies_a_tests_own_examples(monkeypatch):
    monkeypatch.setenv("FUZZ_SCALE", "4")
    test = a_property_test([])
    apply_profile(test, FUZZ)
    apply_profile(test, FUZZ)  # several items share one function: scaled once
    applied = test._hypothesis_internal_use_settings
    assert applied.max_examples == 28 and not applied.derandomize


@pytest.mark.parametrize("raw", ["many", "0"])
def test_a_bad_fuzz_scale_says_what_it_wants(monkeypatch, raw):
    monkeypatch.setenv("FUZZ_SCALE", raw)
    with pytest.raises(SystemExit, match="FUZZ_SCALE must be"):
        fuzz_scale()

"""A firmware-style test module that fails on purpose: the runner must exit 1 for it."""

import unittest


class TestFails(unittest.TestCase):
    def test_fails(self):
        self.assertEqual(1, 2)

"""The USB serial port, which on a MicroPython board is the REPL's stdin and stdout.

Reads a byte at a time while poll says more is waiting (a board's stdin has no
non-blocking bulk read); writes drop when no host drains the port.
"""

import select
import sys


class UsbSerial:
    def __init__(self, stdin=None, stdout=None):
        self.stdin = stdin if stdin is not None else sys.stdin.buffer
        self.stdout = stdout if stdout is not None else sys.stdout.buffer
        self.poll = select.poll()
        self.poll.register(self.stdin, select.POLLIN)
        self.pollable = self.stdin
        self.dropped = 0

    def read_available(self, limit=256):
        """The bytes waiting (maybe none), or None once the other end has closed."""
        out = b""
        while len(out) < limit and self.poll.poll(0):
            b = self.stdin.read(1)
            if not b:
                return out or None
            out += b
        return out

    def write(self, data):
        try:
            self.stdout.write(data)
        except OSError:
            self.dropped += 1

"""A table's network inside the test: two network namespaces the test makes itself, the
tablet's and the phones', joined by a veth pair with private addresses (10.77.0.1 the
tablet, 10.77.0.2 the phones).  Nothing leaves them; nothing of this machine's own
network is touched or reached.

The tablet is the real `companion host` run inside its namespace, so it picks its address
with `lan_address()` as on a real LAN and serves HTTPS with the certificate it makes.  The
phones are Debian's Chromium, started (through chromedriver) from a thread that has
entered the phones' namespace; each phone's HOME holds an NSS database into which the
table's certificate was imported with `certutil`, as a user installs it.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.conftest import ROOT

TABLET = "10.77.0.1"
PHONES = "10.77.0.2"
CLONE_NEWNET = 0x40000000
_names = itertools.count()


def namespaces_work() -> str:
    """Empty when this machine lets the test make namespaces, else why not."""
    if os.geteuid() != 0:
        return "making network namespaces needs root"
    if not shutil.which("ip"):
        return "the 'ip' tool (iproute2) is missing"
    name = f"tcprobe{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", name], capture_output=True, text=True)
    if made.returncode != 0:
        return f"ip netns add failed: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", name], capture_output=True)
    return ""


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True)


def _without_ipv6(ns: str) -> None:
    """No IPv6 in a namespace, set before its wire comes up.  Otherwise the wire's
    link-local address turns from tentative to settled a second or two later, and a
    Chromium started in that second sees the network change under it and drops its page
    with ERR_NETWORK_CHANGED (a CI run failed so).  The table's LAN here is IPv4, as
    `lan_address()` finds it."""
    for scope in ("all", "default"):
        knob = f"/proc/sys/net/ipv6/conf/{scope}/disable_ipv6"
        subprocess.run(
            ["ip", "netns", "exec", ns, "sh", "-c", f"[ ! -e {knob} ] || echo 1 > {knob}"],
            check=True,
            capture_output=True,
        )


def _setns(fd: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.setns(fd, CLONE_NEWNET) != 0:
        raise OSError(ctypes.get_errno(), "setns failed")


class Lan:
    """The two namespaces and the wire between them; `enter()` puts the calling thread
    (and every process it starts after) on the phones' side."""

    def __init__(self) -> None:
        tag = f"{os.getpid() % 100000}x{next(_names)}"
        self.tablet_ns, self.phones_ns = f"tct{tag}", f"tcp{tag}"
        self.veth = (f"tcva{tag}", f"tcvb{tag}")
        self._back: int | None = None

    def __enter__(self) -> Lan:
        _ip("netns", "add", self.tablet_ns)
        _ip("netns", "add", self.phones_ns)
        try:
            for ns in (self.tablet_ns, self.phones_ns):
                _without_ipv6(ns)
            a, b = self.veth
            _ip("link", "add", a, "type", "veth", "peer", "name", b)
            _ip("link", "set", a, "netns", self.tablet_ns)
            _ip("link", "set", b, "netns", self.phones_ns)
            for ns, dev, address in ((self.tablet_ns, a, TABLET), (self.phones_ns, b, PHONES)):
                _ip("-n", ns, "addr", "add", f"{address}/24", "dev", dev)
                _ip("-n", ns, "link", "set", dev, "up")
                _ip("-n", ns, "link", "set", "lo", "up")
            # A LAN has a way out: the tablet's default route is how lan_address() finds it.
            _ip("-n", self.tablet_ns, "route", "add", "default", "via", PHONES)
        except BaseException:
            self._delete()
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        self.leave()
        self._delete()

    def _delete(self) -> None:
        for ns in (self.tablet_ns, self.phones_ns):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)

    def enter(self) -> None:
        """Move this thread to the phones' side (only this thread: namespaces are per task)."""
        if self._back is None:
            self._back = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
            fd = os.open(f"/var/run/netns/{self.phones_ns}", os.O_RDONLY)
            try:
                _setns(fd)
            finally:
                os.close(fd)

    def leave(self) -> None:
        if self._back is not None:
            _setns(self._back)
            os.close(self._back)
            self._back = None

    @contextlib.contextmanager
    def on_tablet(self) -> Iterator[None]:
        """Run a few lines on the tablet's side of the wire (this thread only)."""
        back = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
        fd = os.open(f"/var/run/netns/{self.tablet_ns}", os.O_RDONLY)
        try:
            _setns(fd)
            yield
        finally:
            _setns(back)
            os.close(fd)
            os.close(back)


def companion(*args: str, home: Path, check: bool = True) -> subprocess.CompletedProcess:
    """The `companion` command, as a player types it beside the table (no network)."""
    env = {**os.environ, "COMPANION_HOME": str(home)}
    done = subprocess.run(
        [sys.executable, "-m", "companion", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if check and done.returncode != 0:
        raise AssertionError(f"companion {' '.join(args)} failed: {done.stderr}")
    return done


class Tablet:
    """`companion host SESSION --json` running inside the tablet's namespace."""

    def __init__(self, lan: Lan, home: Path, session: str, port: int = 8765) -> None:
        self.lan, self.home, self.session, self.wanted_port = lan, home, session, port
        self.process: subprocess.Popen[str] | None = None
        self.info: dict[str, Any] = {}
        self.start()

    def start(self) -> dict[str, Any]:
        env = {**os.environ, "COMPANION_HOME": str(self.home), "PYTHONUNBUFFERED": "1"}
        command = [sys.executable, "-m", "companion", "host", self.session]
        command += ["--port", str(self.wanted_port), "--json"]
        self.process = subprocess.Popen(
            ["ip", "netns", "exec", self.lan.tablet_ns, *command],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            self.process.wait(timeout=10)
            raise AssertionError(f"companion host did not start: {self.process.stderr.read()}")
        self.info = json.loads(line)
        return self.info

    @property
    def url(self) -> str:
        """The join QR code's link (the door on plain http, the pass in its fragment)."""
        return str(self.info["url"])

    @property
    def page(self) -> str:
        return str(self.info["page"])

    def stop(self, how: int = signal.SIGINT) -> None:
        """Closed (Ctrl-C) or, with SIGKILL, killed as a crash or a flat battery would."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            # ip netns exec execs the command: the pid is companion's own
            self.process.send_signal(how)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
        self.process = None

    def restart(self, how: int = signal.SIGKILL) -> dict[str, Any]:
        """The tablet closed (or crashed) and opened again: same address, port and
        certificate, since they are kept with the install."""
        self.stop(how)
        return self.start()


def trusting_home(folder: Path, ca_pem: Path) -> Path:
    """A HOME whose browser trusts the table's certificate, imported into its NSS database
    (~/.pki/nssdb) with certutil, as a user installs a certificate on Linux."""
    db = folder / ".pki" / "nssdb"
    db.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["certutil", "-d", f"sql:{db}", "-N", "--empty-password"], check=True, capture_output=True
    )
    subprocess.run(
        ["certutil", "-d", f"sql:{db}", "-A", "-t", "C,,", "-n", "Table Companion", "-i", ca_pem],
        check=True,
        capture_output=True,
    )
    return folder

"""A fake of aioble (MicroPython's asyncio BLE library): a scan that finds the dice
placed in it, and connections whose characteristics carry the dice's messages."""

# MicroPython runs this file: asyncio.TimeoutError is what it has.
# ruff: noqa: UP041

import asyncio


class FakeCharacteristic:
    def __init__(self, die, uuid):
        self.die = die
        self.uuid = uuid

    async def subscribe(self, notify=True):
        self.die.subscribed = notify

    async def write(self, data, response=False):
        self.die.host_wrote(bytes(data))

    async def notified(self, timeout_ms=None):
        for _ in range(max(1, (timeout_ms or 1000) // 10)):
            if self.die.outbox:
                return self.die.outbox.pop(0)
            if self.die.written:
                self.die.connected = False  # said all it had to say: goes out of range
            if not self.die.connected:
                break
            await asyncio.sleep(0.01)
        raise asyncio.TimeoutError()


class FakeService:
    def __init__(self, die):
        self.die = die

    async def characteristic(self, uuid):
        return FakeCharacteristic(self.die, str(uuid))


class FakeConnection:
    def __init__(self, die):
        self.die = die

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        self.die.connected = False

    async def service(self, uuid):
        return FakeService(self.die) if str(uuid) in self.die.services else None

    def is_connected(self):
        return self.die.connected


class FakeDevice:
    def __init__(self, die, addr):
        self.die = die
        self.addr = addr

    async def connect(self, timeout_ms=None):
        self.die.connected = True
        return FakeConnection(self.die)


class FakeDie:
    """A die in the air: what it advertises and how it answers the host."""

    def __init__(self, name, services, addr, answers=None):
        self.name = name
        self.services = services
        self.addr = addr
        self.answers = answers or {}  # first byte the host writes -> replies
        self.outbox = []
        self.written = []
        self.connected = False
        self.subscribed = False

    def host_wrote(self, data):
        self.written.append(data)
        self.outbox += self.answers.get(data[0], [])


class FakeResult:
    def __init__(self, die):
        self.die = die
        self.device = FakeDevice(die, die.addr)

    def name(self):
        return self.die.name

    def services(self):
        return list(self.die.services)


class FakeScan:
    def __init__(self, air):
        self.air = air

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        return None

    def __aiter__(self):
        self._items = [FakeResult(d) for d in self.air]
        return self

    async def __anext__(self):
        if not self._items:
            raise StopAsyncIteration
        return self._items.pop(0)


class FakeAioble:
    def __init__(self):
        self.air = []

    def scan(self, duration_ms, interval_us=None, window_us=None, active=False):
        return FakeScan(self.air)

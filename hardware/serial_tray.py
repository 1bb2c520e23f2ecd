"""The dice tray over USB serial (pyserial), speaking hardware/PROTOCOL.md.

The port is read from the event loop's own reader callback, so a line is parsed the
moment it arrives (no polling interval adds to the latency), and a tray that goes
silent or disappears is reconnected with backoff while the game carries on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import serial
from serial.tools import list_ports

from firmware.common import wire
from hardware.linked import Backoff, DiceSourceError, LinkedSource
from hardware.source import DeviceInfo
from hardware.tray_link import TrayLink

log = logging.getLogger("hardware.serial")

# USB vendor ids of the boards the firmware runs on (Espressif, Raspberry Pi, WCH, SiLabs).
BOARD_VIDS = {0x303A, 0x2E8A, 0x1A86, 0x10C4}
BAUDRATE = 115200


class SerialTraySource(LinkedSource):
    kind = "tray-serial"

    def __init__(
        self,
        port: str | None = None,
        *,
        name: str = "tray",
        hello_timeout: float = 2.0,
        silence_limit: float = wire.SILENCE_LIMIT,
        backoff: Backoff | None = None,
    ) -> None:
        super().__init__(name, backoff)
        self.port = port
        self.hello_timeout = hello_timeout
        self.silence_limit = silence_limit
        self.link = TrayLink(name, self._send)
        self._serial: serial.Serial | None = None
        self._decoder = wire.LineDecoder()
        self._host_seq = 0
        self._watchdog: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    # -- DiceSource ----------------------------------------------------------------------

    async def discover(self, timeout: float = 5.0) -> list[DeviceInfo]:
        """Serial ports that look like a tray's board (any port when one was named)."""
        out = []
        for p in list_ports.comports():
            if p.vid in BOARD_VIDS or p.device == self.port:
                out.append(DeviceInfo(p.device, p.description or p.device, self.kind))
        return out

    async def connect(self, device_id: str | None = None) -> None:
        if device_id:
            self.port = device_id
        if not self.port:
            found = await self.discover()
            if not found:
                raise DiceSourceError("no dice tray is plugged in (no USB serial board found)")
            self.port = found[0].id
        self._closing = False
        self._loop = asyncio.get_running_loop()
        try:
            await self._open()
        except BaseException:
            await self._close()
            raise
        self.status = "connected"
        self._watchdog = self._loop.create_task(self._watch())

    async def disconnect(self) -> None:
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        await super().disconnect()

    async def battery(self) -> int | None:
        return self.link.state.battery

    async def identify(self, die_id: str) -> bool:
        if self._serial is None:
            return False
        return await self.link.blink(die_id.split(":", 1)[-1])

    def info(self) -> DeviceInfo:
        return self.link.device_info(self.port or "", self.kind, self.status == "connected")

    # -- the link ------------------------------------------------------------------------

    async def _open(self) -> None:
        try:
            ser = serial.Serial(self.port, BAUDRATE, timeout=0, write_timeout=0.5)
        except (serial.SerialException, OSError, ValueError) as exc:
            raise DiceSourceError(f"cannot open {self.port}: {exc}") from None
        ser.reset_input_buffer()
        self._serial = ser
        dropped = self._decoder.reset()
        if dropped:
            log.info("%s: dropped %d bytes of an unfinished frame", self.name, len(dropped))
        loop = asyncio.get_running_loop()
        loop.add_reader(ser.fileno(), self._readable)
        await self.link.handshake(self.hello_timeout, self.port or "the port")

    async def _close(self) -> None:
        ser, self._serial = self._serial, None
        if ser is None:
            return
        loop = self._loop or asyncio.get_running_loop()
        with contextlib.suppress(ValueError, OSError):
            loop.remove_reader(ser.fileno())
        with contextlib.suppress(serial.SerialException, OSError):
            ser.close()

    def _send(self, kind: str, fields: tuple[str, ...]) -> int:
        seq = self._host_seq
        self._host_seq = (seq + 1) % wire.SEQ_MOD
        if self._serial is not None:
            try:
                self._serial.write(wire.encode(seq, kind, fields))
            except (serial.SerialException, OSError) as exc:
                self._lost(f"writing failed: {exc}")
        return seq

    def _readable(self) -> None:
        ser = self._serial
        if ser is None:
            return
        try:
            data = ser.read(4096)
        except (serial.SerialException, OSError) as exc:
            dropped = self._decoder.reset()
            if dropped:
                log.warning(
                    "%s: the tray vanished mid-frame; %d bytes dropped", self.name, len(dropped)
                )
            self._stop_reading(ser)
            self._lost(str(exc))
            return
        self.feed(data)

    def feed(self, data: bytes) -> None:
        """Bytes from the wire to frames to roll events."""
        link = self.link
        for item in self._decoder.feed(data):
            event = link.handle(item)
            if event is not None:
                self._deliver(event)

    def _stop_reading(self, ser: serial.Serial) -> None:
        with contextlib.suppress(ValueError, OSError, RuntimeError):
            asyncio.get_running_loop().remove_reader(ser.fileno())

    async def _watch(self) -> None:
        """A tray that stops talking (frozen, unplugged hub) is treated as gone."""
        while not self._closing:
            await asyncio.sleep(min(0.5, self.silence_limit / 2))
            if self.status != "connected":
                continue
            quiet = time.monotonic() - self.link.state.last_frame
            if quiet > self.silence_limit:
                if self._serial is not None:
                    self._stop_reading(self._serial)
                self._lost(f"the tray said nothing for {quiet:.1f} s")

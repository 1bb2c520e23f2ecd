"""The tray as a BLE central (aioble): finds Pixels dice and GoDice, keeps them
connected, and passes their notifications to the DiceRelay.  Radio glue only: the
decoding it feeds is tested; this part needs a board and real dice."""

# MicroPython runs this file: asyncio.TimeoutError and %-formatting are what it has.
# ruff: noqa: UP031, UP041

import asyncio

import aioble  # on the board: `mpremote mip install aioble`
import bluetooth

from firmware.common import godice, pixels

MAX_DICE = 6
GODICE_SHELL = "d6"  # a GoDice's shell; set per die with the host's BLINK + assignment


async def _serve_die(relay, slot, device, kind):
    try:
        connection = await device.connect(timeout_ms=3000)
    except (OSError, asyncio.TimeoutError):
        return
    async with connection:
        if kind == "pixels":
            service = await connection.service(bluetooth.UUID(pixels.SERVICE))
            if service is None:
                service = await connection.service(bluetooth.UUID(pixels.LEGACY_SERVICE))
                notify_uuid, write_uuid = pixels.LEGACY_NOTIFY, pixels.LEGACY_WRITE
            else:
                notify_uuid, write_uuid = pixels.NOTIFY, pixels.WRITE
            relay.joined_pixels(slot)
        else:
            service = await connection.service(bluetooth.UUID(godice.SERVICE))
            notify_uuid, write_uuid = godice.NOTIFY, godice.WRITE
            relay.joined_godice(slot, "godice-%d" % slot, GODICE_SHELL)
        notify = await service.characteristic(bluetooth.UUID(notify_uuid))
        write = await service.characteristic(bluetooth.UUID(write_uuid))
        await notify.subscribe(notify=True)
        if kind == "pixels":
            await write.write(pixels.who_are_you())
        else:
            await write.write(bytes([godice.REQUEST_BATTERY]))
        while connection.is_connected():
            try:
                data = await notify.notified(1000)
            except asyncio.TimeoutError:
                continue
            relay.notified(slot, data)
    relay.left(slot)


async def _serve_then_free(relay, slot, device, kind, busy, key):
    # MicroPython's tasks have no add_done_callback: free the slot here instead
    try:
        await _serve_die(relay, slot, device, kind)
    finally:
        busy.pop(key, None)


async def scan_forever(relay):
    busy = {}
    while True:
        async with aioble.scan(2000, interval_us=30000, window_us=30000, active=True) as scan:
            async for result in scan:
                name = result.name() or ""
                uuids = [str(u) for u in result.services()]
                kind = None
                if name.startswith(godice.NAME_PREFIX):
                    kind = "godice"
                elif any(pixels.SERVICE in u.lower() for u in uuids):
                    kind = "pixels"
                key = bytes(result.device.addr)
                if kind and key not in busy and len(busy) < MAX_DICE:
                    slot = 1
                    while slot in busy.values():
                        slot += 1
                    busy[key] = slot
                    asyncio.create_task(
                        _serve_then_free(relay, slot, result.device, kind, busy, key)
                    )
        await asyncio.sleep(0.5)

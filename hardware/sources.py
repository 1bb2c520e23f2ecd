"""Dice sources by name, for the command line and settings: `serial[:PORT]`, `sim`,
`tray-ble[:ADDRESS]`, `pixels[:ADDRESS]`, `godice[:ADDRESS][@SHELL]`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

from hardware.source import DiceSource

if TYPE_CHECKING:
    from hardware.ble import BleOptions

KINDS = ("serial", "sim", "tray-ble", "pixels", "godice")


class UnknownSource(ValueError):
    pass


def make_source(spec: str, **ble_options: Unpack[BleOptions]) -> DiceSource:
    """A (not yet connected) source for `spec`.  `ble_options` go to BLE sources (tests
    pass the in-memory radio here)."""
    kind, _, rest = spec.partition(":")
    if kind == "serial":
        from hardware.serial_tray import SerialTraySource

        return SerialTraySource(rest or None)
    if kind == "tray-ble":
        from hardware.ble_tray import BleTraySource

        return BleTraySource(rest or None, **ble_options)
    if kind == "pixels":
        from hardware.pixels import PixelsSource

        return PixelsSource(rest or None, **ble_options)
    if kind == "godice":
        from hardware.godice import GoDiceSource

        address, _, shell = rest.partition("@")
        return GoDiceSource(address or None, shell=shell or "d6", **ble_options)
    raise UnknownSource(
        f"'{spec}' is not a dice source; use one of: serial[:PORT], sim, tray-ble[:ADDRESS], "
        "pixels[:ADDRESS], godice[:ADDRESS][@SHELL]"
    )

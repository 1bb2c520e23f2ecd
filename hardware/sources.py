"""Dice sources by name, for the command line and settings: `serial[:PORT]`, `sim`,
`tray-ble[:ADDRESS]`, `pixels[:ADDRESS]`, `godice[:ADDRESS][@SHELL]`.

The BLE sources need bleak, which a tablet build may lack (python-for-android has no
recipe for it, docs/app.md "On a tablet"): each BLE module is imported only when asked
for, and a build without bleak refuses those sources in words (`SourceUnavailable`)
while the tray over USB, the simulated tray and on-screen entry work as before."""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

from hardware.source import DiceSource

if TYPE_CHECKING:
    from hardware.ble import BleOptions

KINDS = ("serial", "sim", "tray-ble", "pixels", "godice")


class UnknownSource(ValueError):
    pass


class SourceUnavailable(UnknownSource):
    """A source this build cannot offer (a library it needs is not installed)."""


BLE_MISSING = (
    "{what} talk over Bluetooth LE, and this build of the app has no Bluetooth LE support "
    "(the bleak library is not installed): use the dice tray over USB, or enter rolls on "
    "the keypad"
)


def _needs_bleak(what: str) -> None:
    try:
        import bleak  # noqa: F401
    except ImportError:
        raise SourceUnavailable(BLE_MISSING.format(what=what)) from None


def make_source(spec: str, **ble_options: Unpack[BleOptions]) -> DiceSource:
    """A (not yet connected) source for `spec`.  `ble_options` go to BLE sources (tests
    pass the in-memory radio here)."""
    kind, _, rest = spec.partition(":")
    if kind == "serial":
        from hardware.serial_tray import SerialTraySource

        return SerialTraySource(rest or None)
    if kind == "tray-ble":
        _needs_bleak("Dice trays over Bluetooth")
        from hardware.ble_tray import BleTraySource

        return BleTraySource(rest or None, **ble_options)
    if kind == "pixels":
        _needs_bleak("Pixels dice")
        from hardware.pixels import PixelsSource

        return PixelsSource(rest or None, **ble_options)
    if kind == "godice":
        _needs_bleak("GoDice")
        from hardware.godice import GoDiceSource

        address, _, shell = rest.partition("@")
        return GoDiceSource(address or None, shell=shell or "d6", **ble_options)
    raise UnknownSource(
        f"'{spec}' is not a dice source; use one of: serial[:PORT], sim, tray-ble[:ADDRESS], "
        "pixels[:ADDRESS], godice[:ADDRESS][@SHELL]"
    )

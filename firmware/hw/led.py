"""The status LED: steady when a host listens, slow blink when alone, fast when asked
to identify."""


class StatusLed:
    PATTERNS = {"off": (0, 1000), "alone": (100, 900), "host": (1000, 0), "identify": (100, 100)}

    def __init__(self, machine, pin):
        self.pin = machine.Pin(pin, machine.Pin.OUT)
        self.mode = "alone"

    def update(self, t_ms):
        on, off = self.PATTERNS[self.mode]
        period = on + off
        self.pin.value(1 if period and (t_ms % period) < on else 0)

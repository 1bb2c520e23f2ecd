"""A piezo disc under the tray floor, read through the ADC: its level is the motion
level the settle detector wants (a die landing rings it, a quiet floor reads near 0)."""


class Piezo:
    def __init__(self, machine, pin, baseline=None):
        self.adc = machine.ADC(machine.Pin(pin))
        self.baseline = baseline if baseline is not None else self.adc.read_u16()

    def level(self):
        """How far the disc's voltage is from its resting value (0-65535 scale)."""
        return abs(self.adc.read_u16() - self.baseline)

"""Deciding when a roll is over: motion above a threshold starts a roll, and a quiet
window with no motion ends it.  The tray feeds it its floor sensor (accelerometer or
piezo), the home-made die its own IMU; both pass plain numbers, so it runs anywhere."""

IDLE, ROLLING, SETTLED = "idle", "rolling", "settled"


def motion(prev, cur):
    """Motion between two accelerometer samples: the sum of the axis changes, in the
    sensor's own units (a die at rest gives only noise, a rolling one large jumps)."""
    if prev is None:
        return 0
    return abs(cur[0] - prev[0]) + abs(cur[1] - prev[1]) + abs(cur[2] - prev[2])


class SettleDetector:
    """feed(t_ms, level) returns ROLLING when a roll starts, SETTLED when it ends, else None.

    `threshold` is the motion level that counts as the die moving; `quiet_ms` how long
    everything must stay below it before the roll counts as over (a die rocking on an
    edge keeps moving, so it never settles early).  `max_roll_ms` ends a roll that never
    goes quiet (a shaking table) as SETTLED anyway, so the game never waits forever.
    """

    def __init__(self, threshold=40, quiet_ms=350, max_roll_ms=8000):
        self.threshold = threshold
        self.quiet_ms = quiet_ms
        self.max_roll_ms = max_roll_ms
        self.state = IDLE
        self._last_motion = 0
        self._started = 0

    def feed(self, t_ms, level):
        if level >= self.threshold:
            self._last_motion = t_ms
            if self.state != ROLLING:
                self.state = ROLLING
                self._started = t_ms
                return ROLLING
            if t_ms - self._started >= self.max_roll_ms:
                self.state = SETTLED
                return SETTLED
            return None
        if self.state == ROLLING and t_ms - self._last_motion >= self.quiet_ms:
            self.state = SETTLED
            return SETTLED
        return None

"""Mapping a device's microsecond clock onto the host's nanosecond clock.

A clock stamps every press with its own time (µs since boot), so the host can time a move
without the USB link's latency and jitter. To compare those stamps with the host's
``time.monotonic_ns()`` the host needs the device clock's *offset* (when it booted, on the
host's time base) and *drift* (its crystal runs fast or slow by up to a few hundred
parts per million: 200 ppm is 0.36 s over a 30-minute duel).

Every message that carries a device time gives a pair (device time ``x``, host receive
time). The receive time is the send time plus a latency that is never negative and
often large (USB polling, an FTDI latency timer, a busy host). So, with residuals
``r = host_ns − 1000·x``, the true line ``r = offset + drift·x`` lies *below* every point,
touching the points that happened to travel fastest. :class:`ClockMapping` keeps the
lowest point of each past ``bucket_us`` of device time over a sliding window (and every
point of the newest bucket that could touch the line) and fits the
line that lies below all of them and is as close to them as possible (the "linear
programming" skew estimator of Moon, Skelly & Towsley, 1999): a supporting line of their
lower convex hull, the one touching the hull above the points' mean ``x``.

Jitter only ever pushes points up, so it moves the fit only when *every* point of the
window was late; the estimate improves with time and a few fast messages are enough.
Properties the tests check: a mapped time never lies after the host received the
message; with 200 ppm drift and realistic latency the error stays well under 1 ms over a
30-minute duel.

Integers throughout (µs, ns and exact rational slopes); no clock is read here.
"""

from __future__ import annotations

from dataclasses import dataclass

#: ppm: a slope steeper than this is not believed (a crystal is within ±100 ppm, a ceramic
#: resonator as on an Arduino Uno within ±5000 ppm; set ``max_drift_ppm`` for such boards).
DEFAULT_MAX_DRIFT_PPM = 1000


@dataclass(frozen=True, slots=True)
class Line:
    """``r(x) = r0 + num·(x − x0) / den`` in ns, for ``x`` in device µs (``den`` > 0)."""

    x0: int
    r0: int
    num: int
    den: int

    def residual(self, x: int) -> int:
        # round half up, exactly
        return self.r0 + (2 * self.num * (x - self.x0) + self.den) // (2 * self.den)

    @property
    def drift_ppb(self) -> int:
        """Device clock rate error in parts per billion (positive: the device runs slow)."""
        # num/den is ns of residual per µs of device time; ×1e6 gives ppb
        return (self.num * 1_000_000) // self.den


class ClockMapping:
    """Offset and drift of one device clock epoch, estimated from (device µs, host ns) pairs.

    Feed every *fresh* message's pair with :meth:`add` (a message re-sent after a
    reconnect carries an old device time with a late receive time: it adds nothing but
    would still be a hull vertex at the window's edge, so callers skip messages older
    than the newest device time already seen — :meth:`add` does it for them).
    """

    __slots__ = (
        "_bucket_us",
        "_closed",
        "_closed_hull",
        "_closed_sum_x",
        "_line",
        "_max_drift_ppm",
        "_newest_x",
        "_open_hull",
        "_open_key",
        "_origin_bound",
        "_window_buckets",
        "samples",
    )

    def __init__(
        self,
        *,
        bucket_us: int = 1_000_000,
        window_us: int = 600_000_000,
        max_drift_ppm: int = DEFAULT_MAX_DRIFT_PPM,
    ) -> None:
        if bucket_us <= 0 or window_us < bucket_us:
            raise ValueError(f"need 0 < bucket_us <= window_us, not {bucket_us} and {window_us}")
        self._bucket_us = bucket_us
        self._window_buckets = window_us // bucket_us
        self._max_drift_ppm = max_drift_ppm
        self._closed: dict[int, tuple[int, int]] = {}  # bucket → lowest (x, r), older buckets
        self._closed_hull: list[tuple[int, int]] | None = []  # None: recompute from _closed
        self._closed_sum_x = 0
        self._open_key: int | None = None  # the newest bucket, still filling
        self._open_hull: list[tuple[int, int]] = []  # its points' lower hull (all of them count)
        self._newest_x: int | None = None
        self._origin_bound: int | None = None
        self._line: Line | None = None
        self.samples = 0  # pairs taken (not counting those ignored as old)

    # -- input --------------------------------------------------------------------------------
    def add(self, device_us: int, host_ns: int) -> bool:
        """Take one pair; returns False (and ignores it) if it is older than the newest seen."""
        # Every pair, old or new, bounds when the device clock started (see origin_bound_ns).
        bound = host_ns - 1000 * device_us - (-device_us * self._max_drift_ppm // 1000)
        if self._origin_bound is None or bound < self._origin_bound:
            self._origin_bound = bound
        if self._newest_x is not None and device_us < self._newest_x:
            return False
        self._newest_x = device_us
        self.samples += 1
        point = (device_us, host_ns - 1000 * device_us)
        key = device_us // self._bucket_us
        self._line = None
        if key == self._open_key:
            _extend_hull(self._open_hull, point, in_place=True)
            return True
        if self._open_key is not None:
            self._close_bucket(self._open_key, min(self._open_hull, key=lambda p: p[1]), key)
        self._open_key = key
        self._open_hull = [point]
        return True

    def _close_bucket(self, closing: int, lowest: tuple[int, int], newest: int) -> None:
        # Buckets close in increasing order, so the hull grows at its right end only.
        self._closed[closing] = lowest
        self._closed_sum_x += lowest[0]
        if self._closed_hull is not None:
            _extend_hull(self._closed_hull, lowest, in_place=True)
        # Expire old buckets in batches (an eighth of the window at a time): dropping the
        # leftmost point means rebuilding the hull, which should not happen every second.
        oldest = newest - self._window_buckets
        if next(iter(self._closed)) < oldest - self._window_buckets // 8:
            for k in [k for k in self._closed if k < oldest]:
                self._closed_sum_x -= self._closed.pop(k)[0]
            self._closed_hull = None

    # -- output -------------------------------------------------------------------------------
    @property
    def max_drift_ppm(self) -> int:
        return self._max_drift_ppm

    def __bool__(self) -> bool:
        return self._open_key is not None

    def host_ns(self, device_us: int) -> int:
        """The host time of device time ``device_us``. Raises ``ValueError`` before any pair."""
        line = self.line()
        return 1000 * device_us + line.residual(device_us)

    def origin_bound_ns(self) -> int:
        """A host instant the device clock had certainly started by (device time 0 was no later).

        Unlike :meth:`host_ns`, a guarantee rather than an estimate: a message stamped
        ``x`` µs arrived at ``h``, after the device had counted ``x`` µs, which took at
        least ``1000·x·(1 − max drift)`` ns of host time. The lowest of these bounds over
        every pair taken (usually the HELLO a device sends as it boots) is returned.
        Raises ``ValueError`` before any pair.
        """
        if self._origin_bound is None:
            raise ValueError("no (device time, host time) pair yet: the device has not spoken")
        return self._origin_bound

    def line(self) -> Line:
        if self._line is None:
            self._line = self._fit()
        return self._line

    @property
    def points(self) -> int:
        """How many points the fit uses (a minimum per past bucket, the newest bucket's hull)."""
        return len(self._closed) + len(self._open_hull)

    # -- the fit ------------------------------------------------------------------------------
    def _points(self) -> list[tuple[int, int]]:
        return [*self._closed.values(), *self._open_hull]

    def _fit(self) -> Line:
        if self._open_key is None:
            raise ValueError("no (device time, host time) pair yet: the device has not spoken")
        if self._closed_hull is None:
            self._closed_hull = _lower_hull(list(self._closed.values()))
        hull = list(self._closed_hull)
        for p in self._open_hull:
            _extend_hull(hull, p, in_place=True)
        n = len(self._closed) + len(self._open_hull)
        sum_x = self._closed_sum_x + sum(x for x, _ in self._open_hull)
        if len(hull) == 1:
            x0, r0 = hull[0]
            return Line(x0, r0, 0, 1)
        # the hull edge above the mean x: hull[i].x·n <= sum_x <= hull[i+1].x·n
        i = 0
        while i < len(hull) - 2 and hull[i + 1][0] * n < sum_x:
            i += 1
        (xa, ra), (xb, rb) = hull[i], hull[i + 1]
        num, den = rb - ra, xb - xa
        limit = self._max_drift_ppm  # ns per µs is ppm/1000
        if abs(num) * 1000 > limit * den:
            return self._clamped(limit if num > 0 else -limit)
        return Line(xa, ra, num, den)

    def _clamped(self, ppm: int) -> Line:
        """The line of slope ``ppm`` that touches the points from below."""
        x0, r0 = min(self._points(), key=lambda p: p[1] * 1000 - ppm * p[0])
        return Line(x0, r0, ppm, 1000)


def _cross(o: tuple[int, int], a: tuple[int, int], b: tuple[int, int]) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _lower_hull(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The lower convex hull of ``points`` sorted by x (Andrew's monotone chain)."""
    hull: list[tuple[int, int]] = []
    for p in points:
        hull = _extend_hull(hull, p, in_place=True)
    return hull


def _extend_hull(
    hull: list[tuple[int, int]], p: tuple[int, int], *, in_place: bool = False
) -> list[tuple[int, int]]:
    h = hull if in_place else list(hull)
    if h and h[-1][0] == p[0]:  # same x: keep the lower
        if p[1] >= h[-1][1]:
            return h
        h.pop()
    while len(h) >= 2 and _cross(h[-2], h[-1], p) <= 0:
        h.pop()
    h.append(p)
    return h

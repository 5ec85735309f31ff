"""Duel tables wired to a Raspberry Pi: two buttons per table, through gpiozero.

A :class:`GpioTable` is one table: a button per side, and optionally a "your turn" LED
per side, a buzzer and a referee's pause button (pins from
:mod:`clockd.devices.gpio_config`). It implements :class:`~clockd.devices.base.TableDevice`:
it turns button edges into :class:`~clockd.devices.base.DevicePress` events and lights the
running side's LED when the daemon calls :meth:`GpioTable.show`.

Three things decide whether a referee can trust a press from a GPIO table:

**When did it happen?** With the lgpio pin factory (the one to use on a Pi), the kernel
stamps every edge (``CLOCK_MONOTONIC``, the base of :func:`time.monotonic_ns`) and lgpio
hands the stamp to gpiozero, which passes it to the pin's ``when_changed`` handler as
float seconds. We turn it back into integer nanoseconds once, here, and never use the
moment our callback happens to run, which can be late by a scheduling hiccup. Other
factories (RPi.GPIO, native, mock pins) give no edge time: then the callback time stands
in, and :meth:`GpioTable.status` says so (see :class:`EdgeTime` and :func:`edge_time_for`).

**Was it one press?** A push button's contacts bounce for a few milliseconds. Debouncing
happens here, on raw edges (gpiozero's ``bounce_time`` would stamp an edge at the *end*
of the window, and its mock pins ignore it, so tests would not exercise it): the first
edge of a burst is the press, with its own timestamp, and every edge within
``debounce_ms`` of it is bounce, dropped and counted (:class:`Debouncer`).

**Who pressed, when both did?** The driver delivers every press faithfully, including a
press by the player whose time is not running: the clock (``clockd.core``) ignores that
one and counts it. Only presses of *both* sides closer than ``simultaneous_ms`` (1 ms)
need a rule, because delivering both could end a turn a microsecond after it began. The
rule is a mechanical clock's lever (:class:`Lever`): of two presses by the two players
within the same millisecond, the one by the player whose time was running stands; the
other is dropped and counted.

Threads: lgpio calls ``when_changed`` from one background thread for all pins; mock pins
call it in whichever thread drives them. Either way, a table handles an edge under its
own lock and hands the event to the sink there, so each table's events reach the sink in
the order of its edges. The sink must be thread-safe and quick (``queue.Queue.put``).
"""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict

from clockd.core.clock import Side
from clockd.core.device import Beep, DeviceState, Display, TwoClocks
from clockd.core.units import HOUR, MS, SECOND, US
from clockd.devices.base import (
    Connected,
    DevicePress,
    DeviceStatus,
    RefereeButton,
    Sink,
)
from clockd.devices.gpio_config import GpioConfig, TableConfig, describe_pin
from clockd.i18n import Msg, Problem, msg

#: Buzzer patterns: (on ms, off ms, repeats). A flag is one long tone, a tie three short
#: ones, the relay's "ZMIANA" two long ones — distinct enough to tell apart across a hall.
BEEP_PATTERNS: dict[Beep, tuple[int, int, int]] = {
    Beep.SHORT: (100, 0, 1),
    Beep.FLAG: (1500, 0, 1),
    Beep.TIE: (200, 200, 3),
    Beep.CHANGE: (500, 300, 2),
}


class GpioUnavailable(Problem, RuntimeError):
    """This computer has no GPIO gpiozero can drive (not a Pi, or lgpio missing)."""


class GpioStartError(Problem, RuntimeError):
    """A table could not claim one of its pins; the message names the table, role and pin."""


# -- edge time ----------------------------------------------------------------------------


class EdgeTime(Protocol):
    """Turns the ``ticks`` a pin factory passes to ``when_changed`` into ``monotonic_ns`` time."""

    name: str  # "kernel", "pin" or "callback": machine-readable, for status and summaries
    rejected: int  # edges whose own time could not be used (the callback time stood in)

    def to_ns(self, ticks: object, now_ns: int) -> int:
        """The edge's instant; ``now_ns`` is ``time.monotonic_ns()`` read as the callback began."""
        ...

    def describe(self) -> Msg:
        """How presses are timed, as a message for the referee (the table's status shows it)."""
        ...


class CallbackTime:
    """The factory gives no edge time (RPi.GPIO, native, mock pins): the callback's own time stands in."""

    name = "callback"

    def __init__(self) -> None:
        self.rejected = 0

    def to_ns(self, ticks: object, now_ns: int) -> int:
        return now_ns

    def describe(self) -> Msg:
        return Msg("driver.gpio.callback-time-this-pin-factory-gives")


class KernelEdgeTime:
    """lgpio: the kernel's edge timestamp, which gpiozero hands over as float seconds.

    lgpio requests lines through the GPIO character device (uAPI v2) without the realtime
    flag, so the kernel stamps edges on ``CLOCK_MONOTONIC`` — the clock of
    :func:`time.monotonic_ns`. gpiozero divides lgpio's integer nanoseconds by 1e9;
    ``round(ticks * 1e9)`` gives the integer back exactly for the first ~48 days after boot
    (a float's 53 bits), within a few nanoseconds after that.

    A stamp is checked against the callback's time before it is trusted: it cannot lie in
    the future, and one older than :attr:`MAX_AGE_NS` means another time base (a kernel
    stamping ``CLOCK_REALTIME``). Such an edge takes the callback time and is counted in
    :attr:`rejected`, which the table's status reports.
    """

    name = "kernel"
    MAX_AGE_NS = HOUR  # a stall this long is not a scheduling delay; the bases differ
    FUTURE_SLACK_NS = US  # float rounding, nothing more

    def __init__(self) -> None:
        self.rejected = 0

    def to_ns(self, ticks: object, now_ns: int) -> int:
        if isinstance(ticks, bool) or not isinstance(ticks, int | float):
            self.rejected += 1
            return now_ns
        edge_ns = ticks if isinstance(ticks, int) else round(ticks * SECOND)
        age = now_ns - edge_ns
        if -self.FUTURE_SLACK_NS <= age <= self.MAX_AGE_NS:
            return min(edge_ns, now_ns)
        self.rejected += 1
        return now_ns

    def describe(self) -> Msg:
        rejected = msg("driver.gpio.stamps-rejected-another-time-base", rejected=self.rejected)
        return msg(
            "driver.gpio.kernel-edge-time-lgpio-clock-monotonic", rejected=rejected if self.rejected else ""
        )


class PinEdgeTime:
    """The factory passes integer nanoseconds on the ``monotonic_ns`` base (``hw_sim``'s scripted pins)."""

    name = "pin"

    def __init__(self) -> None:
        self.rejected = 0

    def to_ns(self, ticks: object, now_ns: int) -> int:
        if isinstance(ticks, int) and not isinstance(ticks, bool):
            return ticks
        self.rejected += 1
        return now_ns

    def describe(self) -> Msg:
        return Msg("driver.gpio.edge-time-supplied-by-the-pin")


def edge_time_for(factory: Any) -> EdgeTime:
    """How edge times are read on ``factory``.

    A factory with ``EDGE_TICKS_NS = True`` promises integer-nanosecond ticks on the
    ``monotonic_ns`` base; gpiozero's lgpio factory carries kernel stamps; any other
    factory's ticks are its own clock read in the callback, no better than ours.
    """
    if getattr(factory, "EDGE_TICKS_NS", False):
        return PinEdgeTime()
    if any(
        cls.__name__ == "LGPIOFactory" and cls.__module__ == "gpiozero.pins.lgpio"
        for cls in type(factory).__mro__
    ):
        return KernelEdgeTime()
    return CallbackTime()


# -- debounce and the lever ---------------------------------------------------------------


class Debouncer:
    """One contact's raw edges in, presses out: the first edge of a burst is the press.

    An accepted edge (a press, or a release after a press) opens a quiet window of
    ``window_ns``; edges inside it are bounce, dropped and counted in :attr:`dropped`.
    After the window, a press edge is a new press even if the debounced state is still
    "down": a tap shorter than the window released inside it, and edges alternate, so
    this edge is a new touch. Edges must come in time order per contact (the kernel and
    lgpio keep that order).
    """

    def __init__(self, window_ns: int) -> None:
        if window_ns <= 0:
            raise ValueError(f"debounce window must be positive, not {window_ns} ns")
        self.window_ns = window_ns
        self.down = False
        self.quiet_until: int | None = None
        self.dropped = 0

    def edge(self, t_ns: int, pressed: bool) -> bool:
        """Whether this raw edge is a new press."""
        if self.quiet_until is not None and t_ns < self.quiet_until:
            self.dropped += 1
            return False
        if pressed:
            self.down = True
            self.quiet_until = t_ns + self.window_ns
            return True
        if self.down:
            self.down = False
            self.quiet_until = t_ns + self.window_ns
        return False


class Lever:
    """The lever of a mechanical chess clock, to settle presses of both sides in one millisecond.

    A press puts the lever down on the presser's side (their time stops, the other's runs).
    A press that would throw the lever back less than ``window_ns`` after it moved is
    dropped and counted in :attr:`dropped`. So of two presses by the two players within the
    window, the one by the player whose time was running stands, in either arrival order:

    * running player first: their press moves the lever; the other's comes too soon after;
    * waiting player first: their press moves nothing (the lever is already down on their
      side) and is delivered for the clock to ignore and count; the running player's press
      then moves the lever and is delivered.

    The lever follows delivered presses, and the daemon's view through :meth:`sync` (a
    referee may start a clock for a side without any press).
    """

    def __init__(self, window_ns: int) -> None:
        self.window_ns = window_ns
        self.down: Side | None = None
        self.moved_at: int | None = None
        self.dropped = 0
        self._moved_since_sync = False

    def admit(self, side: Side, t_ns: int) -> bool:
        """Whether a press by ``side`` at ``t_ns`` is delivered."""
        if side is self.down:
            return True
        if self.down is not None and self.moved_at is not None and abs(t_ns - self.moved_at) < self.window_ns:
            self.dropped += 1
            return False
        self.down = side
        self.moved_at = t_ns
        self._moved_since_sync = True
        return True

    def sync(self, running: Side) -> None:
        """The daemon shows ``running``'s time running: the lever is down on the other side.

        Ignored when a press moved the lever since the previous call: that display may
        predate the press.
        """
        if not self._moved_since_sync:
            self.down = running.other
        self._moved_since_sync = False


# -- the table ----------------------------------------------------------------------------


class GpioCounters(BaseModel):
    """What a table's driver delivered and what it dropped (the clock counts ignored presses itself)."""

    model_config = ConfigDict(frozen=True)

    presses: int = 0
    referee_presses: int = 0
    bounce_edges: int = 0  # raw edges inside a debounce window
    simultaneous: int = 0  # presses dropped by the lever rule
    edge_time_rejected: int = 0  # edges stamped with the callback time because their own was implausible
    unacknowledged: int = 0  # presses delivered but not yet journaled


class _Contact:
    """One button on one pin, opened as a gpiozero ``InputDevice`` with the internal pull-up.

    Not a gpiozero ``Button``: its events carry no edge time. We take the pin's raw
    ``when_changed`` edges, which do. gpiozero keeps only a weak reference to the handler,
    so this object must stay referenced while the table runs (the table holds it).
    """

    def __init__(self, table: GpioTable, role: str, side: Side | None, bcm: int, debounce_ns: int) -> None:
        self.table = table
        self.role = role
        self.side = side
        self.bcm = bcm
        self.debouncer = Debouncer(debounce_ns)
        self.device: Any = None

    def open(self, bcm: int, *, pin_factory: Any) -> Any:
        from gpiozero import InputDevice

        self.device = InputDevice(bcm, pull_up=True, pin_factory=pin_factory)
        pin = self.device.pin
        pin.edges = "both"
        pin.when_changed = self._changed
        return self.device

    def _changed(self, ticks: object, state: object) -> None:
        self.table._edge(self, ticks, state)

    def close(self) -> None:
        if self.device is not None:
            self.device.pin.when_changed = None
            self.device.close()
            self.device = None


class GpioTable:
    """One duel table on a Raspberry Pi's GPIO header (a :class:`~clockd.devices.base.TableDevice`).

    ``pin_factory`` is gpiozero's: ``None`` for gpiozero's default (set
    ``GPIOZERO_PIN_FACTORY=lgpio`` on a Pi), a ``MockFactory`` in tests. ``edge_time``
    overrides :func:`edge_time_for`. ``clock`` is read once per edge, first thing in the
    callback, for the callback time.
    """

    def __init__(
        self,
        config: TableConfig,
        *,
        debounce_ms: int = 30,
        simultaneous_ms: int = 1,
        pin_factory: Any = None,
        edge_time: EdgeTime | None = None,
        clock: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        self.config = config
        self.table = config.number
        self.device_id = f"gpio:{config.number}"
        self._factory = pin_factory
        self._edge_time = edge_time
        self._clock = clock
        debounce_ns = debounce_ms * MS
        self._contacts = [
            _Contact(self, "button_a", Side.A, config.button_a, debounce_ns),
            _Contact(self, "button_b", Side.B, config.button_b, debounce_ns),
        ]
        if config.referee is not None:
            self._contacts.append(_Contact(self, "referee", None, config.referee, debounce_ns))
        self._lever = Lever(simultaneous_ms * MS)
        self._lock = threading.RLock()
        self._sink: Sink | None = None
        self._leds: dict[Side, Any] = {}
        self._buzzer: Any = None
        self._seq = 0
        self._presses = 0
        self._referee_presses = 0
        self._unacknowledged: set[int] = set()
        self._fallbacks: list[str] = []  # gpiozero's reasons for not using a preferred pin factory

    # -- TableDevice --------------------------------------------------------------------------
    def start(self, sink: Sink) -> None:
        """Claim the pins and begin delivering events; :class:`Connected` comes first.

        Raises :class:`GpioUnavailable` when gpiozero finds no GPIO, :class:`GpioStartError`
        naming the table, role and pin when a pin cannot be claimed; then nothing stays open.
        """
        with self._lock:
            if self._sink is not None:
                raise RuntimeError(f"GPIO table {self.table} is already started")
            try:
                self._open_all()
            except BaseException:
                self._close_all()
                raise
            if self._edge_time is None:
                self._edge_time = edge_time_for(self._factory)
            self._sink = sink
            sink(
                Connected(
                    table=self.table, t_ns=self._clock(), device_id=self.device_id, detail=self._detail()
                )
            )

    def stop(self) -> None:
        """Stop delivering events and let the pins go (a table can be started again)."""
        with self._lock:
            self._sink = None
            self._close_all()

    def acknowledge(self, press: DevicePress) -> None:
        """GPIO presses live in memory only: nothing to re-send, just stop counting it as pending."""
        if press.seq is not None:
            with self._lock:
                self._unacknowledged.discard(press.seq)

    def show(self, display: Display) -> None:
        """Two clocks: light the running side's LED (both off when no time runs) and keep the
        lever in step. A countdown or a text has no side to light: both LEDs go off."""
        running = display.running if isinstance(display, TwoClocks) else None
        with self._lock:
            if running is not None:
                self._lever.sync(running)
            for side, led in self._leds.items():
                if side is running:
                    led.on()
                else:
                    led.off()

    def beep(self, pattern: Beep) -> None:
        """Sound ``pattern`` on the buzzer in the background (a table without one stays silent)."""
        with self._lock:
            buzzer = self._buzzer
        if buzzer is None:
            return
        on_ms, off_ms, repeats = BEEP_PATTERNS[pattern]
        # gpiozero takes float seconds: these are buzzer durations, not game time.
        buzzer.beep(on_time=on_ms / 1000, off_time=off_ms / 1000, n=repeats, background=True)

    def status(self) -> DeviceStatus:
        with self._lock:
            started = self._sink is not None
            detail = self._detail()
        state = DeviceState.CONNECTED if started else DeviceState.DISCONNECTED
        return DeviceStatus(device_id=self.device_id, state=state, detail=detail)

    # -- what a referee or a test may read ---------------------------------------------------
    def counters(self) -> GpioCounters:
        with self._lock:
            return GpioCounters(
                presses=self._presses,
                referee_presses=self._referee_presses,
                bounce_edges=sum(c.debouncer.dropped for c in self._contacts),
                simultaneous=self._lever.dropped,
                edge_time_rejected=self._edge_time.rejected if self._edge_time is not None else 0,
                unacknowledged=len(self._unacknowledged),
            )

    @property
    def edge_time(self) -> EdgeTime | None:
        """How edges are timed (known once started: it depends on the pin factory)."""
        return self._edge_time

    @property
    def pin_factory(self) -> Any:
        return self._factory

    # -- inside -----------------------------------------------------------------------------------
    def _open_all(self) -> None:
        from gpiozero import LED, Buzzer

        for contact in self._contacts:
            self._claim(contact.role, contact.bcm, contact.open)
        for side, role in ((Side.A, "led_a"), (Side.B, "led_b")):
            pin = getattr(self.config, role)
            if pin is not None:
                self._leds[side] = self._claim(role, pin, LED)
        if self.config.buzzer is not None:
            self._buzzer = self._claim("buzzer", self.config.buzzer, Buzzer)

    def _claim(self, role: str, bcm: int, make: Callable[..., Any]) -> Any:
        """``make(bcm, pin_factory=...)``, turning gpiozero's errors into sentences about this table."""
        from gpiozero.exc import BadPinFactory, GPIOZeroError, PinFactoryFallback

        choosing = self._factory is None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                device = make(bcm, pin_factory=self._factory)
            except BadPinFactory as exc:
                reasons = "; ".join(
                    str(w.message) for w in caught if issubclass(w.category, PinFactoryFallback)
                )
                raise GpioUnavailable(
                    "driver.gpio.no-gpio-on-this-computer-gpiozero", reasons=reasons
                ) from exc
            except (GPIOZeroError, OSError) as exc:
                raise GpioStartError(
                    "driver.gpio.pin-unusable",
                    table=self.table,
                    role=role,
                    pin=describe_pin(bcm),
                    problem=exc,
                ) from exc
        for w in caught:
            if issubclass(w.category, PinFactoryFallback):
                self._fallbacks.append(str(w.message))
            else:
                warnings.warn(w.message, w.category, stacklevel=2)
        if choosing:
            # gpiozero chose its default factory: remember which, for edge times and status.
            self._factory = device.pin_factory
        return device

    def _close_all(self) -> None:
        for contact in self._contacts:
            contact.close()
        for led in self._leds.values():
            led.close()
        self._leds = {}
        if self._buzzer is not None:
            self._buzzer.close()
            self._buzzer = None

    def _edge(self, contact: _Contact, ticks: object, state: object) -> None:
        now_ns = self._clock()
        with self._lock:
            sink = self._sink
            if sink is None or self._edge_time is None:
                return
            if state not in (0, 1):
                return  # lgpio's watchdog "timeout" level: not an edge
            t_ns = self._edge_time.to_ns(ticks, now_ns)
            pressed = not state  # the button pulls the pin low against the internal pull-up
            if not contact.debouncer.edge(t_ns, pressed):
                return
            if contact.side is None:
                self._referee_presses += 1
                sink(RefereeButton(table=self.table, t_ns=t_ns, device_id=self.device_id))
                return
            if not self._lever.admit(contact.side, t_ns):
                return
            self._seq += 1
            self._presses += 1
            self._unacknowledged.add(self._seq)
            sink(
                DevicePress(
                    table=self.table, t_ns=t_ns, side=contact.side, device_id=self.device_id, seq=self._seq
                )
            )

    def _detail(self) -> Msg:
        factory = type(self._factory).__name__ if self._factory is not None else "?"
        buttons = "/".join(describe_pin(c.bcm) for c in self._contacts if c.side is not None)
        source: Msg | str = self._edge_time.describe() if self._edge_time is not None else "?"
        c = self.counters()
        # gpiozero's own reasons for not using a preferred pin factory: its words, as it said them.
        fallbacks = msg("driver.gpio.gpiozero", reasons="; ".join(self._fallbacks)) if self._fallbacks else ""
        return msg(
            "driver.gpio.buttons-presses-contact-bounce-dropped",
            buttons=buttons,
            factory=factory,
            source=source,
            fallbacks=fallbacks,
            presses=c.presses,
            bounce_edges=c.bounce_edges,
            simultaneous=c.simultaneous,
        )


def gpio_tables(config: GpioConfig, *, pin_factory: Any = None, **kwargs: Any) -> list[GpioTable]:
    """One :class:`GpioTable` per configured table, sharing the configuration's timing settings."""
    return [
        GpioTable(
            table,
            debounce_ms=config.debounce_ms,
            simultaneous_ms=config.simultaneous_ms,
            pin_factory=pin_factory,
            **kwargs,
        )
        for table in config.tables
    ]


def start_all(tables: Iterable[GpioTable], sink: Sink) -> None:
    """Start every table, or none: a failure stops the ones already started and re-raises."""
    started: list[GpioTable] = []
    try:
        for table in tables:
            table.start(sink)
            started.append(table)
    except BaseException:
        for table in started:
            table.stop()
        raise

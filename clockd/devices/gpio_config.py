"""Which Raspberry Pi pins the duel tables use — checked whole before anything starts.

A table on a Pi is two buttons (one per side), and optionally a "your turn" LED per side,
a buzzer and a referee's pause button. The referee (or whoever wired the hall) writes the
pins down in a TOML file; every mistake in it is refused with a sentence naming the table,
the role and the pin, and nothing is opened until the whole file is right:

* a pin that is not a GPIO of the 40-pin header (``GPIO40``, ``BOARD6`` — a ground pin);
* a pin used twice, inside one table or across tables;
* a table without both buttons, or a table number listed twice.

Pins may be written as a BCM number (``17``), ``"GPIO17"``, ``"BCM17"``, or by position on
the header, ``"BOARD11"`` / ``"J8:11"``. They are stored as BCM numbers. Names are looked up
in gpiozero's own board data, so the accepted forms are exactly gpiozero's. Every 40-pin
Raspberry Pi (B+, 2, 3, 4, 5, Zero) has the same header; a Pi 4B's data stands for all.

The file format (``docs/raspberry-pi.md``)::

    debounce_ms = 30        # optional; contact bounce shorter than this is one press
    simultaneous_ms = 1     # optional; see clockd.devices.gpio (the lever rule)

    [[tables]]
    number = 1
    button_a = "GPIO17"
    button_b = "GPIO27"
    led_a = "GPIO22"        # optional
    led_b = "GPIO23"        # optional
    buzzer = "GPIO24"       # optional
    referee = "GPIO25"      # optional pause button

The daemon may read this file with :func:`load_gpio_config`, or embed the same keys in its
own configuration and call :func:`parse_gpio_config` on that section.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from clockd.core.actions import error_msg
from clockd.i18n import Msg, Problem, msg

#: The pin roles of a table, in the order a referee reads them.
PIN_ROLES = ("button_a", "button_b", "led_a", "led_b", "buzzer", "referee")
BUTTON_ROLES = ("button_a", "button_b")

#: A Pi 4B; its J8 header is the 40-pin header every current Pi shares.
_REFERENCE_REVISION = "c03111"
_HEADER = "J8"

#: GPIO 0 and 1 are on the header but belong to the HAT identification EEPROM.
_RESERVED = {0: "ID_SD", 1: "ID_SC"}


class GpioConfigError(Problem):
    """The GPIO configuration cannot be used; every reason is a message (``messages``, rendered
    in the reader's language), ``problems`` their English sentences (for logs and tests)."""

    def __init__(self, source: str | Msg, problems: list[Msg]) -> None:
        self.source = source
        self.messages = problems
        if len(problems) == 1:
            super().__init__("gpio.config-problem", source=source, problem=problems[0])
        else:
            listed = [Msg("gpio.bullet", {"problem": p}) for p in problems]
            super().__init__("gpio.config-problems", source=source, n=len(problems), problems=listed)

    @property
    def problems(self) -> list[str]:
        return [str(m) for m in self.messages]


#: What a configuration that is no file of its own is called in its messages.
GPIO_CONFIGURATION = Msg("gpio.source.configuration")


class PinProblems(Problem):
    """Several problems found by one validator (pydantic keeps the exception: its messages survive)."""

    def __init__(self, problems: list[Msg]) -> None:
        super().__init__("gpio.problems", problems=problems)
        self.messages = problems


# -- pins ---------------------------------------------------------------------------------


@cache
def _header() -> Any:
    from gpiozero import pi_info

    return pi_info(_REFERENCE_REVISION).headers[_HEADER]


def _find(name: int | str) -> Any | None:
    for info in _header().pins.values():
        if name in info.names:
            return info
    return None


def parse_pin(spec: object) -> int:
    """The BCM number of a header pin written as ``17``, ``"GPIO17"``, ``"BCM17"``, ``"BOARD11"``.

    Raises a :class:`~clockd.i18n.Problem` (a ``ValueError``) naming the pin when it is not a
    usable GPIO.
    """
    if isinstance(spec, bool) or not isinstance(spec, int | str):
        raise Problem("gpio.not-a-pin-name", spec=repr(spec))
    name: int | str = spec.strip().upper() if isinstance(spec, str) else spec
    info = _find(name)
    if info is None:
        raise Problem("gpio.not-on-the-header", spec=repr(spec))
    if "gpio" not in info.interfaces:
        raise Problem("gpio.not-a-gpio", spec=repr(spec), number=info.number, name=info.name)
    bcm = int(info.name.removeprefix("GPIO"))
    if bcm in _RESERVED:
        raise Problem("gpio.reserved", spec=repr(spec), bcm=bcm, line=_RESERVED[bcm])
    return bcm


def describe_pin(bcm: int) -> str:
    """``"GPIO17 (pin 11)"``: the name and where to find it on the header, for messages."""
    info = _find(bcm)
    return f"GPIO{bcm} (pin {info.number})" if info is not None else f"GPIO{bcm}"


def usable_pins() -> list[int]:
    """Every BCM number a table may use, in header order (the simulator lays tables out on these)."""
    out = []
    for number in sorted(_header().pins):
        info = _header().pins[number]
        if "gpio" in info.interfaces:
            bcm = int(info.name.removeprefix("GPIO"))
            if bcm not in _RESERVED:
                out.append(bcm)
    return out


# -- models ---------------------------------------------------------------------------------


class TableConfig(BaseModel):
    """The pins of one duel table (BCM numbers once validated)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    number: int = Field(ge=1, description="the table number the referee and the daemon use")
    button_a: int
    button_b: int
    led_a: int | None = None
    led_b: int | None = None
    buzzer: int | None = None
    referee: int | None = None

    @model_validator(mode="before")
    @classmethod
    def _resolve_pins(cls, data: Any) -> Any:
        if not isinstance(data, Mapping):
            return data
        number = data.get("number")
        where = msg("gpio.where.table", number=number) if number is not None else Msg("gpio.where.no-number")
        problems = [
            msg("gpio.no-button", where=where, role=role) for role in BUTTON_ROLES if data.get(role) is None
        ]
        resolved = dict(data)
        for role in PIN_ROLES:
            spec = data.get(role)
            if spec is None:
                continue
            try:
                resolved[role] = parse_pin(spec)
            except Problem as exc:
                problems.append(msg("gpio.role-problem", where=where, role=role, problem=exc.msg))
        if problems:
            raise PinProblems(problems)
        return resolved

    def pins(self) -> dict[str, int]:
        """Role → BCM number, for the roles this table has."""
        return {role: pin for role in PIN_ROLES if (pin := getattr(self, role)) is not None}


class GpioConfig(BaseModel):
    """All the GPIO tables of one Raspberry Pi, and how their buttons are read."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    debounce_ms: int = Field(
        default=30, ge=1, le=1000, description="edges within this time of an accepted edge are contact bounce"
    )
    simultaneous_ms: int = Field(
        default=1,
        ge=0,
        le=100,
        description="presses of both sides closer than this are resolved by the lever rule",
    )
    tables: tuple[TableConfig, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _each_pin_once(self) -> GpioConfig:
        problems = _reuse_problems((table.number, table.pins()) for table in self.tables)
        if problems:
            raise PinProblems(problems)
        return self

    def table(self, number: int) -> TableConfig:
        for table in self.tables:
            if table.number == number:
                return table
        raise KeyError(f"no GPIO table {number} in this configuration")


def _reuse_problems(tables: Iterable[tuple[object, Mapping[str, int]]]) -> list[Msg]:
    """A message for every table number listed twice and every pin used twice."""
    problems: list[Msg] = []
    owner: dict[int, Msg] = {}
    numbers: set[object] = set()
    for number, pins in tables:
        if number in numbers:
            problems.append(msg("gpio.listed-twice", number=number))
        numbers.add(number)
        for role, pin in pins.items():
            where = msg("gpio.where.role", number=number, role=role)
            if pin in owner:
                problems.append(msg("gpio.used-twice", pin=describe_pin(pin), first=owner[pin], second=where))
            else:
                owner[pin] = where
    return problems


def _raw_reuse_problems(data: Mapping[str, Any]) -> list[Msg]:
    """:func:`_reuse_problems` on unvalidated tables: pins that do not parse are reported elsewhere."""
    raw = data.get("tables")
    if not isinstance(raw, list | tuple):
        return []
    tables = []
    for entry in raw:
        if not isinstance(entry, Mapping):
            continue
        pins = {}
        for role in PIN_ROLES:
            if entry.get(role) is None:
                continue
            try:
                pins[role] = parse_pin(entry[role])
            except Problem:
                continue
        tables.append((entry.get("number"), pins))
    return _reuse_problems(tables)


# -- reading ----------------------------------------------------------------------------------


def parse_gpio_config(data: Mapping[str, Any], source: str | Msg = GPIO_CONFIGURATION) -> GpioConfig:
    """Validate a mapping (a parsed TOML file or a section of one); :class:`GpioConfigError` if wrong."""
    try:
        return GpioConfig.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        inside_tables = any(len(e["loc"]) > 1 and e["loc"][0] == "tables" for e in errors)
        problems: list[Msg] = []
        for error in errors:
            if tuple(error["loc"]) == ("tables",) and error["type"] in ("too_short", "missing"):
                if inside_tables:
                    continue  # pydantic's echo of the tables that failed, already reported
                problems.append(_NO_TABLES)
                continue
            problems.extend(_sentences(error, data))
        if inside_tables:
            # the whole-configuration check did not run: look for reused pins in the raw tables
            problems.extend(_raw_reuse_problems(data))
        raise GpioConfigError(source, problems) from None


_NO_TABLES = Msg("gpio.no-tables")


def load_gpio_config(path: str | Path) -> GpioConfig:
    """Read and validate a GPIO configuration file (TOML)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise GpioConfigError(str(path), [msg("gpio.unreadable", problem=exc)]) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise GpioConfigError(str(path), [msg("gpio.not-toml", problem=str(exc))]) from None
    return parse_gpio_config(data, source=str(path))


def _sentences(error: Mapping[str, Any], data: Mapping[str, Any]) -> Iterator[Msg]:
    """One pydantic error as our messages: ours pass through, pydantic's get a place named."""
    ctx = error.get("ctx") or {}
    cause = ctx.get("error")
    if isinstance(cause, PinProblems):
        yield from cause.messages
        return
    if isinstance(cause, Problem):
        yield cause.msg
        return
    loc = tuple(error["loc"])
    where: Msg | None = None
    if len(loc) >= 2 and loc[0] == "tables" and isinstance(loc[1], int):
        where = _table_name(data, loc[1])
        loc = loc[2:]
    key = ".".join(str(part) for part in loc)
    if error["type"] == "extra_forbidden" and loc:
        yield msg("gpio.unknown-key", where=where or _THE_CONFIGURATION, key=repr(key))
    elif error["type"] == "missing" and loc:
        yield msg("gpio.missing-key", where=where or _THE_CONFIGURATION, key=repr(key))
    else:
        yield error_msg(error, where or _THE_CONFIGURATION, key)


_THE_CONFIGURATION = Msg("gpio.where.configuration")


def _table_name(data: Mapping[str, Any], index: int) -> Msg:
    try:
        number = data["tables"][index]["number"]
    except (KeyError, IndexError, TypeError):
        number = None
    if number is None:
        return msg("gpio.where.entry", index=index + 1)
    return msg("gpio.where.table", number=number)

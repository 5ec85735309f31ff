"""The daemon's configuration file (TOML): where the journal is, the API address, the tables.

Example (``docs/architecture.md`` has the full reference)::

    [daemon]
    db = "/var/lib/duelclock/festival.db"   # default: duelclock.db in the state folder
    host = "127.0.0.1"                      # beyond this machine: serve TLS (tls_cert, tls_key)
    port = 7531

    [[tables]]
    id = 1
    label = "Stolik 1"
    control = "10m"                     # TimeControl text: "10m", "3m+2s", "90m/40+30s, 30m+30s"
    device = { kind = "serial", port = "/dev/serial/by-id/usb-duelclock_A1-if00" }

    [[tables]]
    id = 2
    control = "10m"
    device = { kind = "gpio", button_a = "GPIO17", button_b = "GPIO27" }   # docs/raspberry-pi.md

    [[tables]]
    id = 3
    device = { kind = "simulated" }

Every error names the file, the table and the field, and nothing starts until the whole
file is valid.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import PydanticCustomError

from clockd.api.messages import DEFAULT_PORT
from clockd.core.actions import validation_msgs
from clockd.core.ids import DEFAULT_HALL
from clockd.core.timecontrol import TimeControl
from clockd.i18n import Msg, Problem, msg


class DaemonConfigError(Problem):
    """The configuration cannot be used; the message names the file and the place."""


class SimulatedDevice(BaseModel):
    """Players simulated in the daemon's process (no hardware)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["simulated"] = "simulated"
    median_ms: int = Field(default=4_000, ge=100)


class SerialDevice(BaseModel):
    """A USB-serial clock (``clockd.devices.serial``): a port path, or a USB identity to find it by.

    ``vid``/``pid`` (default: the driver's, ``clockd.devices.serial.DEFAULT_VID``/``DEFAULT_PID``)
    name the clock's USB ids when it is found by ``serial_number``.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["serial"] = "serial"
    port: str | None = None
    serial_number: str | None = None
    vid: int | None = Field(default=None, ge=0, le=0xFFFF)
    pid: int | None = Field(default=None, ge=0, le=0xFFFF)


class GpioDevice(BaseModel):
    """Two buttons on a Raspberry Pi (``clockd.devices.gpio``).

    The pin fields are validated by the GPIO driver's own configuration model
    (``clockd.devices.gpio_config``) when the device is built; they are kept here as given.
    """

    model_config = ConfigDict(extra="allow", frozen=True)

    kind: Literal["gpio"] = "gpio"


DeviceConfig = Annotated[SimulatedDevice | SerialDevice | GpioDevice, Field(discriminator="kind")]


class TableSection(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: int = Field(ge=1)
    label: str = ""
    control: str = "10m"
    device: DeviceConfig | None = None

    @field_validator("control")
    @classmethod
    def _control_parses(cls, value: str) -> str:
        TimeControl.parse(value)  # raises ValueError naming the bad part
        return value


class DaemonSection(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    db: Path | None = None
    #: The name this daemon's tables and events are known by on a network of daemons
    #: (``desk/3``, ``desk/pt``); kept in the journal from its first start.
    hall: str = Field(default=DEFAULT_HALL, pattern=r"^[a-z0-9][a-z0-9-]{0,31}$")
    host: str = "127.0.0.1"
    port: int = Field(default=DEFAULT_PORT, ge=0, le=65535)
    #: Serve TLS with this certificate (PEM) and key (``--tls-cert``/``--tls-key``).
    tls_cert: Path | None = None
    tls_key: Path | None = None
    grace_ms: int = Field(default=250, ge=0, le=10_000)
    snapshot_every: int = Field(default=20_000, ge=100)


class DaemonConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    daemon: DaemonSection = DaemonSection()
    tables: list[TableSection] = []

    @model_validator(mode="after")
    def _unique_ids(self) -> DaemonConfig:
        seen: set[int] = set()
        for table in self.tables:
            if table.id in seen:
                raise PydanticCustomError(
                    "daemon-config.table-twice", "table {table} is defined twice", {"table": table.id}
                )
            seen.add(table.id)
        return self


def load_config(path: str | Path) -> DaemonConfig:
    """Read and check a configuration file; :class:`DaemonConfigError` says what is wrong and where."""
    path = Path(path)
    try:
        data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DaemonConfigError("daemon-config.unreadable", path=str(path), problem=exc) from exc
    except tomllib.TOMLDecodeError as exc:
        raise DaemonConfigError("daemon-config.not-toml", path=str(path), problem=str(exc)) from exc
    try:
        return DaemonConfig.model_validate(data)
    except ValidationError as exc:
        problems = validation_msgs(exc, str(path), limit=5, where=lambda loc: _where(loc, data))
        raise DaemonConfigError("daemon-config.invalid", path=str(path), problems=problems) from None


def _where(loc: tuple[Any, ...], data: dict[str, Any]) -> str | Msg:
    """A place in the file as the organiser knows it: "device.port (table 3, entry 2)"."""
    parts = [str(p) for p in loc]
    if len(loc) >= 2 and loc[0] == "tables" and isinstance(loc[1], int):
        tables = data.get("tables") or []
        entry = tables[loc[1]] if loc[1] < len(tables) else None
        number = entry.get("id", "?") if isinstance(entry, dict) else "?"
        return msg("daemon-config.table-field", field=".".join(parts[2:]), table=number, entry=loc[1] + 1)
    return ".".join(parts)

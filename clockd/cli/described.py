"""The command line rendered from the daemon's descriptions: any action of any kind.

``duelclock event do KEY`` lists what may be done on event ``KEY`` now (and why not the
rest); ``duelclock event do KEY ACTION --FIELD VALUE …`` does it. The options are not
written here: they are built from the action's description as the daemon gives it
(:mod:`clockd.api.describe` — the fields, their types, limits and help), so a new kind's
actions work from the command line with no line of code in ``clockd/cli``.

A field ``delta_ms`` or any other ``*_ms`` is typed in seconds (``+30``, ``-1.5``), as
every other command takes times; a yes/no field is a flag (``--stop-running``); a list
takes its values one after another.

The command line's own short words are built the same way: a :class:`Verb` says only which
action a word does and which of its fields are typed by position (``duelclock event finish
sztafeta para-3`` is ``entry-finish`` with its ``entry``); the options, their types, limits
and help come from the action's one definition (:func:`add_verb`), so a word and its action
never drift apart.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from clockd.api.describe import (
    ActionDescription,
    Describe,
    Described,
    DescribeReply,
    FieldDescription,
    describe_action,
)
from clockd.api.messages import Done, EventView
from clockd.api.shown import Pick
from clockd.cli.argtypes import seconds_to_ms
from clockd.core.actions import Action, action_named
from clockd.i18n import Msg, msg, render, text


def option(field: FieldDescription) -> str:
    return "--" + field.name.replace("_", "-")


def _typed(field: FieldDescription) -> Any:
    if field.type == "list" and field.items is not None:
        return _typed(field.model_copy(update={"type": field.items}))
    if field.type == "ms":
        return seconds_to_ms
    if field.type == "integer":
        return int
    if field.type == "number":
        return float
    if field.type == "choice" and all(isinstance(c, int) for c in field.choices):
        return int
    return str


def _help(field: FieldDescription) -> str:
    words = render(field.help) if field.help is not None else field.name
    if field.type == "ms":
        words += " " + text("cli.described.in-seconds")
    limits = [
        (field.minimum, "cli.described.at-least"),
        (field.maximum, "cli.described.at-most"),
        (field.max_length, "cli.described.at-most-characters"),
    ]
    for value, code in limits:
        if value is not None:
            shown = (
                value / 1000 if field.type == "ms" and code != "cli.described.at-most-characters" else value
            )
            words += "; " + text(code, value=f"{shown:g}" if isinstance(shown, float) else shown)
    return words


def add_fields(
    parser: argparse.ArgumentParser,
    description: ActionDescription,
    given: tuple[str, ...] = (),
    picks: dict[str, tuple[Pick, ...]] | None = None,
) -> None:
    """The action's fields as ``parser``'s arguments: those ``given`` by position, in order, the
    rest as options (``--field``), each typed and helped as its description says; a field the
    event has ``picks`` for takes one of them."""
    fields = {f.name: f for f in description.fields}
    if picks:
        fields = {
            n: f.model_copy(update={"type": "choice", "choices": tuple(p.value for p in picks[n])})
            if n in picks
            else f
            for n, f in fields.items()
        }
        description = description.model_copy(update={"fields": tuple(fields.values())})
    for name in given:
        field = fields[name]
        metavar = "±SECONDS" if field.type == "ms" else name.upper()
        kwargs: dict[str, Any] = {"help": _help(field), "metavar": metavar}
        if field.type == "list":
            kwargs["nargs"] = "+"
        elif not field.required:
            kwargs["nargs"] = "?"
            kwargs["default"] = field.default
        if field.type == "choice":
            kwargs["choices"] = list(field.choices)
        parser.add_argument(name, type=_typed(field), **kwargs)
    for field in description.fields:
        if field.name in given:
            continue
        if field.type == "boolean":
            parser.add_argument(option(field), dest=field.name, action="store_true", help=_help(field))
            continue
        kwargs = {"dest": field.name, "help": _help(field), "required": field.required}
        if field.type == "list":
            kwargs["nargs"] = "+"
        elif field.type == "choice":
            kwargs["choices"] = list(field.choices)
        kwargs["type"] = _typed(field)
        parser.add_argument(option(field), **kwargs)


@dataclass(frozen=True, slots=True)
class Verb:
    """A short word of the command line for one action (see the module docstring)."""

    word: str
    action: str
    given: tuple[str, ...] = ()
    #: The word's own summary (a catalogue code), where the command line words it for its
    #: context ("pause a match's clock"); else the action's help.
    help: str | None = None


def add_verb(verb: Verb, make: Callable[..., argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """``verb``'s subcommand: ``make(word, help, aliases=…)`` makes it (with the command's own
    options); its arguments are the action's fields. The action's own name is the word's
    alias (``duelclock table 3 set-clock`` is ``set``), so the core's name always works too."""
    description = describe_action(action_named(verb.action))
    words = text(verb.help) if verb.help is not None else render(description.help or description.title)
    aliases = [verb.action] if verb.action != verb.word else []
    parser = make(verb.word, words, aliases=aliases)
    add_fields(parser, description, verb.given)
    parser.set_defaults(verb=verb)
    return parser


def verb_action(args: argparse.Namespace) -> Action:
    """The action a verb's arguments make, checked by its definition (a :class:`Problem` names
    the first bad field)."""
    from clockd.core.actions import parse_action

    verb: Verb = args.verb
    description = describe_action(action_named(verb.action))
    fields = {
        f.name: getattr(args, f.name) for f in description.fields if getattr(args, f.name, None) is not None
    }
    return parse_action(verb.action, fields)


def parser_for(
    description: ActionDescription, prog: str, picks: dict[str, tuple[Pick, ...]] | None = None
) -> argparse.ArgumentParser:
    """The options of one action, from its description."""
    from clockd.cli.parser import Parser  # the command line's own words, in the user's language

    parser = Parser(
        prog=prog,
        description=render(description.help or description.title),
        allow_abbrev=False,
    )
    add_fields(parser, description, picks=picks)
    return parser


def fields_of(
    description: ActionDescription,
    argv: list[str],
    prog: str,
    picks: dict[str, tuple[Pick, ...]] | None = None,
) -> dict[str, Any]:
    """The fields typed for ``description`` (argparse says what is wrong, and exits 2)."""
    values = vars(parser_for(description, prog, picks).parse_args(argv))
    return {k: v for k, v in values.items() if v is not None}


def list_actions(event: EventView, described: DescribeReply) -> None:
    """What may be done on the event now, with help; what may not, with the daemon's reason."""
    print(text("cli.described.actions-of", event=event.key, title=render(event.title)))
    for name in sorted(event.actions):
        description = described.action(name)
        title = render(description.title) if description is not None else name
        reason = event.actions[name]
        if reason is None:
            print(f"  {name:24s} {title}")
        else:
            print(f"  {name:24s} {title} — {text('cli.described.not-now', reason=render(reason))}")


def do(client: Any, key: str, words: list[str], *, prog: str, as_json: bool) -> int:
    """``event do KEY [ACTION --FIELD VALUE …]`` (see the module docstring)."""
    described = client.request(Describe())
    assert isinstance(described, DescribeReply)
    event = client.events([key]).events[0]
    if not words or words[0] in ("-h", "--help"):
        list_actions(event, described)
        return 0
    name, argv = words[0], words[1:]
    description = described.action(name)
    if description is None or name not in event.actions:
        known = ", ".join(sorted(event.actions))
        print(render(msg("cli.described.no-such-action", action=name, event=key, known=known)))
        return 2
    fields = fields_of(description, argv, f"{prog} {key} {name}", event.picks.get(name))
    done = client.act(key, Described(kind=name, **fields))
    assert isinstance(done, Done)
    if as_json:
        print(json.dumps(done.model_dump(mode="json", exclude={"v", "id", "type"}), ensure_ascii=False))
        return 0
    print(render(msg("cli.journaled", seq=done.seq)))
    if done.event is not None:
        for line in shown_lines(done.event):
            print("  " + line)
    return 0


def shown_lines(event: EventView) -> list[str]:
    """An event's ``shown`` lines as text: a label and its words or its time."""
    out = []
    for row in event.shown:
        value: str | Msg = row.text if row.text is not None else ""
        if row.ms is not None:
            value = msg("shown.left" if row.time == "left" else "shown.gone", ms=row.ms)
        out.append(f"{render(row.label)}: {render(value) if isinstance(value, Msg) else value}")
    return out

"""``duelclock person find|show|export|correct|restrict|erase``: the RODO rights at the desk.

Both organisers promise every participant the rights of the GDPR (RODO): to see their data
(``show``), to take it with them (``export ID --json FILE``), to have it corrected
(``correct ID FIELD VALUE``), its processing restricted (``restrict ID``, ``--lift``) and
erased (``erase ID``: from the vault, the state, the snapshots and the file's free pages;
the results stay, under a stand-in name). ``find TEXT`` gives the person's id from a name,
an e-mail or a phone.

Every one needs the referee's token, even the ones that only read, and every use is
journaled — who (``--by``, default your login), when, and why (``--reason``, required):
the journal is the audit log. Without the token the daemon refuses, and nothing is shown.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, date, datetime
from typing import Any

from clockd.cli.status import add_connection_options, call
from clockd.i18n import Msg, msg, render, text


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "person", help=text("cli.person.help"), description=text("cli.person.description")
    )
    psub = parser.add_subparsers(dest="action", required=True, metavar="ACTION")

    def command(name: str, help_code: str, *, json_option: bool = True) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = psub.add_parser(name, help=text(help_code), description=text(help_code))
        add_connection_options(p, token=True, json_option=json_option)
        p.add_argument("--reason", required=True, help=text("cli.person.reason"))
        p.add_argument("--by", default=None, help=text("cli.event.who-decides-default-your-login"))
        p.set_defaults(func=run, command=name)
        return p

    p = command("find", "cli.person.find")
    p.add_argument("text", metavar="TEXT", help=text("cli.person.find-text"))
    p = command("show", "cli.person.show")
    p.add_argument("person", metavar="ID", help=text("cli.person.id"))
    p = command("export", "cli.person.export", json_option=False)
    p.add_argument("person", metavar="ID", help=text("cli.person.id"))
    p.add_argument(
        "--json", metavar="FILE", dest="json_out", required=True, help=text("cli.person.export-file")
    )
    p = command("correct", "cli.person.correct")
    p.add_argument("person", metavar="ID", help=text("cli.person.id"))
    p.add_argument(
        "field",
        choices=["first_name", "last_name", "email", "phone", "nickname"],
        help=text("cli.person.field"),
    )
    p.add_argument("value", metavar="VALUE", help=text("cli.person.value"))
    p = command("restrict", "cli.person.restrict")
    p.add_argument("person", metavar="ID", help=text("cli.person.id"))
    p.add_argument("--lift", action="store_true", help=text("cli.person.lift"))
    p = command("erase", "cli.person.erase")
    p.add_argument("person", metavar="ID", help=text("cli.person.id"))
    p = command("consent", "cli.person.consent")
    p.add_argument("person", metavar="ID", help=text("cli.person.id"))
    p.add_argument(
        "consent",
        choices=["processing", "rules", "image", "newsletter", "other"],
        help=text("cli.person.consent-kind"),
    )
    p.add_argument("--give", action="store_true", help=text("cli.person.consent-give"))
    p.add_argument("--resign", action="store_true", help=text("cli.person.consent-resign"))
    p = command("notify", "cli.person.notify", json_option=False)
    p.add_argument("event", metavar="EVENT", help=text("cli.event.the-events-key"))
    p.add_argument("--csv", metavar="FILE", required=True, help=text("cli.person.notify-file"))
    p = command("retention", "cli.person.retention")
    p.add_argument(
        "--published", type=date.fromisoformat, metavar="YYYY-MM-DD", help=text("cli.person.published")
    )
    p.add_argument(
        "--contacts-days", type=int, default=30, metavar="N", help=text("cli.person.contacts-days")
    )
    p.add_argument("--today", type=date.fromisoformat, metavar="YYYY-MM-DD", help=text("cli.person.today"))
    p.add_argument("--apply", action="store_true", help=text("cli.person.apply"))


def run(args: argparse.Namespace) -> int:
    if args.by is None:
        from clockd.api.local import login_name

        args.by = login_name()

    def act(client: Any) -> int:
        client.by = args.by or ""
        if args.command == "notify":
            return _notify(client, args)
        if args.command == "retention":
            return _retention(client, args)
        if args.command in ("find", "show", "export"):
            reply = client.person(
                args.command,
                reason=args.reason,
                text=getattr(args, "text", ""),
                person=getattr(args, "person", ""),
                by=args.by or "",
            )
            return _answer(args, reply)
        from clockd.core.registry import PersonConsent, PersonCorrect, PersonErase, PersonRestrict

        action: Any
        if args.command == "consent":
            action = PersonConsent(
                person=args.person,
                consent=args.consent,
                given=args.give,
                resign=args.resign,
                reason=args.reason,
            )
        elif args.command == "correct":
            action = PersonCorrect(person=args.person, field=args.field, value=args.value, reason=args.reason)
        elif args.command == "restrict":
            action = PersonRestrict(person=args.person, lift=args.lift, reason=args.reason)
        else:
            action = PersonErase(person=args.person, reason=args.reason)
        done = client.act("", action)
        if args.json:
            print(json.dumps({"seq": done.seq, "person": args.person}, ensure_ascii=False))
        else:
            print(render(msg("cli.journaled", seq=done.seq)))
        return 0

    return call(args, act)


def _answer(args: argparse.Namespace, reply: Any) -> int:
    people = [p.model_dump(mode="json") for p in reply.people]
    if args.command == "export":
        (record,) = people or [{"person_id": args.person, "restricted": False, "sources": []}]
        out = export_document(record)
        try:
            from clockd.store.files import private_file

            private_file(args.json_out, json.dumps(out, ensure_ascii=False, indent=2) + "\n")
        except OSError as exc:
            print(render(msg("cli.cannot-write", path=args.json_out, problem=exc)), file=sys.stderr)
            return 1
        print(
            render(msg("cli.person.exported", path=args.json_out, person=args.person, n=len(out["events"])))
        )
        return 0
    if getattr(args, "json", False):
        print(json.dumps({"audit_seq": reply.seq, "people": people}, ensure_ascii=False))
        return 0
    if not people:
        print(render(msg("cli.person.none")))
    for record in people:
        state = render(msg("cli.person.restricted")) if record["restricted"] else ""
        print(render(msg("cli.person.person", person=record["person_id"], state=state)))
        for src in record["sources"]:
            p = src["person"]
            print(
                "  "
                + render(
                    msg(
                        "cli.person.source",
                        event=src["event"],
                        player=src["player"],
                        display=src["display_name"],
                        list=Msg(code=f"term.list.{src['list']}"),
                        line=src["line"] if src["line"] is not None else "—",
                        sent=src["signed_up_at"] or "—",
                        name=f"{p['first_name']} {p['last_name']}".strip(),
                        email=p["email"] or "—",
                        phone=p["phone"] or "—",
                        age=p["age"] if p["age"] is not None else "—",
                    )
                )
            )
            for c in p.get("consents", []):
                code = "cli.person.consent-given" if c["given"] else "cli.person.consent-not-given"
                print(
                    "    " + render(msg(code, text=c["text"], answer=c["answer"] or "—", at=c["at"] or "—"))
                )
    return 0


def _notify(client: Any, args: argparse.Namespace) -> int:
    """The lists to notify people (§1.15): the main list, then the reserve list, with e-mails,
    as CSV for a mail merge; restricted people and withdrawals left out."""
    import csv
    import io

    from clockd.core.csvtext import spreadsheet_cell

    reply = client.person("list", reason=args.reason, event=args.event, by=args.by or "")
    rows = []
    for record in reply.people:
        if record.restricted:
            continue
        for src in record.sources:
            if src.list in ("main", "reserve") and not src.withdrawn:
                rows.append(src)
    rows.sort(key=lambda s: (s.list != "main", s.player))
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\n")
    writer.writerow(["list", "player", "display_name", "first_name", "last_name", "email", "phone"])
    for s in rows:
        p = s.person
        cells = [s.list, str(s.player), s.display_name, p.first_name, p.last_name, p.email, p.phone]
        writer.writerow([spreadsheet_cell(c) for c in cells])
    try:
        from clockd.store.files import private_file

        private_file(args.csv, out.getvalue())
    except OSError as exc:
        print(render(msg("cli.cannot-write", path=args.csv, problem=exc)), file=sys.stderr)
        return 1
    main = sum(1 for s in rows if s.list == "main")
    print(render(msg("cli.person.notify-written", path=args.csv, main=main, reserve=len(rows) - main)))
    return 0


def _retention(client: Any, args: argparse.Namespace) -> int:
    """The retention plan: what goes today (and, with ``--apply``, journaled as it goes)."""
    from clockd.core.retention import plan

    today = args.today or datetime.now(UTC).date()
    reply = client.person("list", reason=args.reason, by=args.by or "")
    sources = [src for record in reply.people for src in record.sources]
    finished: set[str] = set()
    played: dict[str, set[int]] = {}
    for view in client.events().events:
        body = view.body
        kind = getattr(body, "kind", None)
        if kind == "puzzle-duel":
            if body.stage == "finished":
                finished.add(view.key)
            played[view.key] = set(body.field or ())
        elif kind == "chess":  # every child on the start list keeps their games (the TRF, §H)
            if body.phase == "finished":
                finished.add(view.key)
            played[view.key] = {p.start for p in body.start_list}
        elif kind in ("relay", "blind", "team"):  # a member played if their entry took a table
            if body.confirmed:
                finished.add(view.key)
            seated = {e.entry for e in body.entries if e.table is not None or e.place is not None}
            played[view.key] = {
                s.player for s in sources if s.event == view.key and s.details.get("entry") in seated
            }
    todo = plan(
        sources,
        finished=finished,
        played=played,
        today=today,
        published=args.published,
        contacts_days=args.contacts_days,
    )
    done: list[int] = []
    if args.apply:
        from clockd.core.registry import PersonDrop, PersonErase

        for step in todo.steps:
            why = f"{render(msg(f'cli.person.retention-why.{step.why}'), 'en')}: {args.reason}"
            action: Any = (
                PersonErase(person=step.person_id, reason=why)
                if step.how == "erase"
                else PersonDrop(person=step.person_id, fields=("email", "phone"), reason=why)
            )
            done.append(client.act("", action).seq)
    if getattr(args, "json", False):
        print(json.dumps({**todo.model_dump(mode="json"), "applied": done}, ensure_ascii=False))
        return 0
    for step in todo.steps:
        what = msg(f"cli.person.retention-why.{step.why}")
        print(
            render(
                msg(
                    "cli.person.retention-step",
                    how=msg(f"cli.person.retention-how.{step.how}"),
                    person=step.person_id,
                    names=", ".join(step.names),
                    events=", ".join(step.events),
                    why=what,
                )
            )
        )
    if not todo.steps:
        print(render(msg("cli.person.retention-nothing")))
    for r in todo.reminders:
        code = "cli.person.form-reminder-past" if r.past else "cli.person.form-reminder"
        print(render(msg(code, event=r.event, due=r.due.strftime("%d.%m.%Y"), first=r.first_sent)))
    if todo.steps:
        done_msg = (
            msg("cli.person.retention-applied", n=len(done))
            if args.apply
            else msg("cli.person.retention-dry")
        )
        print(render(done_msg))
    return 0


def export_document(record: dict[str, Any]) -> dict[str, Any]:
    """What ``person export`` writes: everything held about one person, machine-readable (RODO
    art. 20), each event they took part in with the data it holds, where it came from, and
    their results there (the place, each duel: opponent, who won, both clocks' time left)."""
    return {
        "format": "duelclock-person-export/1",
        "person_id": record["person_id"],
        "exported_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "processing_restricted": record["restricted"],
        "events": [
            {
                "event": src["event"],
                "player": src["player"],
                "display_name": src["display_name"],
                "list": src["list"],
                "withdrawn": src["withdrawn"],
                "source": {"line": src["line"], "signed_up_at": src["signed_up_at"]},
                "data": {k: v for k, v in src["person"].items() if k != "consents"} | src.get("details", {}),
                "consents": src["person"].get("consents", []),
                # what they achieved there: the place (podium) and every duel, as the results file has it
                "results": {"place": src.get("place"), "matches": src.get("results", [])},
            }
            for src in record["sources"]
        ],
    }

"""A countdown with laps: the worked example of an event kind that is one folder.

A hall countdown (``duration``, from its TOML: ``duration_ms = 600000``) that the referee
starts and stops, and whose *laps* a referee records as they happen (a runner passing the
line), each at the instant the daemon takes it. It was added without a change outside this
folder; ``test_countdown.py`` shows it in ``event list``, the CLI, the desk, the audience
screen and the web page (docs/architecture.md, "Adding a kind").
"""

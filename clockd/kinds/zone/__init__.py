"""The zone contests: relay, blind and team puzzle races on buzzers, timed in the hall."""

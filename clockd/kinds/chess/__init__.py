"""The school chess day: registrations, groups played as Swiss tournaments, printouts."""

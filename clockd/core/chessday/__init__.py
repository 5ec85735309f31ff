"""The school chess day (RULES.md §H): registrations and payments, the 20 groups, the day's plan.

* :mod:`clockd.core.chessday.roster` — who plays in which group (the day file shared by the
  registration desk, the printouts and the daemon's chess groups);
* :mod:`clockd.core.chessday.registrations` — forms + bank statements → complete registrations;
* :mod:`clockd.core.chessday.groups` — the complete registrations → the 20 groups.

The pairing engine, TRF and tie-breaks are :mod:`clockd.core.swiss`.
"""

"""The demos' fictional people: every name a simulated player signs up or plays under.

The daemon's demos (``duelclock demo``: the puzzle duel, the zone contests, the chess day)
sign players up through the daemon's own forms and imports, as a desk would; the names come
from here, one place for all of them, beside the player models that press their buttons
(:mod:`hw_sim.players`). The far side of the wire: this module imports nothing of the daemon.
All names are Polish, with their diacritics (the demos show they survive every surface).
Tuples: one set of people shared by every demo, never changed by one of them.
"""

from __future__ import annotations

#: First names for the puzzle-duel sign-up form and the zone contests' teams.
FIRST = (
    "Anna",
    "Jan",
    "Zofia",
    "Piotr",
    "Maja",
    "Tomasz",
    "Julia",
    "Michał",
    "Ola",
    "Kacper",
    "Ewa",
    "Szymon",
    "Lena",
    "Filip",
    "Hanna",
    "Igor",
    "Nina",
    "Bartek",
    "Iga",
    "Marek",
)
#: Surnames to go with :data:`FIRST` (the puzzle duel's players; the teams' initials).
LAST = (
    "Kowalska",
    "Nowak",
    "Wiśniewska",
    "Wójcik",
    "Kamińska",
    "Lewandowski",
    "Zielińska",
    "Szymański",
    "Woźniak",
    "Dąbrowski",
    "Kozłowska",
    "Jankowski",
    "Mazur",
    "Kwiatkowski",
    "Krawczyk",
    "Piotrowski",
    "Grabowska",
    "Pawłowski",
    "Michalska",
    "Król",
)

#: First names of the chess day's boys and girls, 20 each; with :data:`SURNAMES`, 600 people
#: a group never repeats.
BOYS = (
    "Jan",
    "Antoni",
    "Aleksander",
    "Franciszek",
    "Jakub",
    "Leon",
    "Szymon",
    "Filip",
    "Stanisław",
    "Mikołaj",
    "Wojciech",
    "Kacper",
    "Ignacy",
    "Adam",
    "Piotr",
    "Tymon",
    "Wiktor",
    "Michał",
    "Marcel",
    "Józef",
)
GIRLS = (
    "Zofia",
    "Zuzanna",
    "Hanna",
    "Julia",
    "Maja",
    "Laura",
    "Oliwia",
    "Alicja",
    "Lena",
    "Pola",
    "Maria",
    "Amelia",
    "Helena",
    "Wiktoria",
    "Nadia",
    "Antonina",
    "Iga",
    "Liliana",
    "Róża",
    "Łucja",
)
#: Surnames as (masculine, feminine).
SURNAMES = (
    ("Nowak", "Nowak"),
    ("Kowalski", "Kowalska"),
    ("Wiśniewski", "Wiśniewska"),
    ("Wójcik", "Wójcik"),
    ("Kowalczyk", "Kowalczyk"),
    ("Kamiński", "Kamińska"),
    ("Lewandowski", "Lewandowska"),
    ("Zieliński", "Zielińska"),
    ("Szymański", "Szymańska"),
    ("Woźniak", "Woźniak"),
    ("Dąbrowski", "Dąbrowska"),
    ("Kozłowski", "Kozłowska"),
    ("Jankowski", "Jankowska"),
    ("Mazur", "Mazur"),
    ("Kwiatkowski", "Kwiatkowska"),
    ("Krawczyk", "Krawczyk"),
    ("Piotrowski", "Piotrowska"),
    ("Grabowski", "Grabowska"),
    ("Nowakowski", "Nowakowska"),
    ("Pawłowski", "Pawłowska"),
    ("Michalski", "Michalska"),
    ("Król", "Król"),
    ("Wieczorek", "Wieczorek"),
    ("Jabłoński", "Jabłońska"),
    ("Wróbel", "Wróbel"),
    ("Majewski", "Majewska"),
    ("Olszewski", "Olszewska"),
    ("Stępień", "Stępień"),
    ("Malinowski", "Malinowska"),
    ("Jaworski", "Jaworska"),
)
#: The schools the chess day's children come from.
SCHOOLS = (
    "Szkoła Podstawowa nr 1 w Gdyni",
    "Szkoła Podstawowa nr 12 im. Marii Skłodowskiej-Curie",
    "Szkoła Podstawowa nr 5 w Sopocie",
    "Zespół Szkół Ogólnokształcących nr 3",
    "Przedszkole Miejskie nr 7 „Pod Żaglami”",
    "Szkoła Podstawowa nr 21 w Gdańsku",
)

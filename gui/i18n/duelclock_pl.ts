<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="pl_PL">
<context>
    <name>AddPlayerDialog</name>
    <message>
        <source>Add a player</source>
        <translation>Dodaj zawodnika</translation>
    </message>
    <message>
        <source>First name</source>
        <translation>Imię</translation>
    </message>
    <message>
        <source>Surname</source>
        <translation>Nazwisko</translation>
    </message>
    <message>
        <source>optional: the name on the screens</source>
        <translation>opcjonalnie: nazwa na ekranach</translation>
    </message>
    <message>
        <source>Nickname</source>
        <translation>Pseudonim</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>Wiek</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-mail</translation>
    </message>
    <message>
        <source>Phone</source>
        <translation>Telefon</translation>
    </message>
    <message>
        <source>walk-in: waiting at the desk now (§1.19)</source>
        <translation>z sali: czeka teraz przy stoliku sędziego (§1.19)</translation>
    </message>
</context>
<context>
    <name>AdjustDialog</name>
    <message>
        <source>Adjust the time — table %1</source>
        <translation>Korekta czasu — stolik %1</translation>
    </message>
    <message>
        <source>Side</source>
        <translation>Strona</translation>
    </message>
    <message>
        <source>Add (negative: remove)</source>
        <translation>Dodaj (ujemne: odejmij)</translation>
    </message>
    <message>
        <source>why — required, it is journaled</source>
        <translation>dlaczego — wymagane, trafia do dziennika</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Powód</translation>
    </message>
</context>
<context>
    <name>AssignDialog</name>
    <message>
        <source>Put a match on a table</source>
        <translation>Pojedynek na stolik</translation>
    </message>
    <message>
        <source>Match</source>
        <translation>Pojedynek</translation>
    </message>
    <message>
        <source>Table %1</source>
        <translation>Stolik %1</translation>
    </message>
    <message>
        <source>busy: %1</source>
        <translation>zajęty: %1</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>Stolik</translation>
    </message>
    <message>
        <source>Sits at side A</source>
        <translation>Siedzi po stronie A</translation>
    </message>
</context>
<context>
    <name>AudienceWindow</name>
    <message>
        <source>duelclock — audience</source>
        <translation>duelclock — widownia</translation>
    </message>
    <message>
        <source>LIVE NOW</source>
        <translation>TERAZ NA ŻYWO</translation>
    </message>
</context>
<context>
    <name>BracketView</name>
    <message>
        <source>bye</source>
        <extracomment>A card was clicked: its match id.</extracomment>
        <translation>wolny los</translation>
    </message>
    <message>
        <source>loser of %1</source>
        <translation>przegrany %1</translation>
    </message>
    <message>
        <source>winner of %1</source>
        <translation>zwycięzca %1</translation>
    </message>
    <message>
        <source>PAUSED</source>
        <translation>PAUZA</translation>
    </message>
    <message>
        <source>FLAG</source>
        <translation>FLAGA</translation>
    </message>
    <message>
        <source>TIE-BREAK</source>
        <translation>DOGRYWKA</translation>
    </message>
    <message>
        <source>LIVE</source>
        <translation>NA ŻYWO</translation>
    </message>
    <message>
        <source>RESULT</source>
        <translation>WYNIK</translation>
    </message>
    <message>
        <source>TO CONFIRM</source>
        <translation>DO ZATWIERDZENIA</translation>
    </message>
    <message>
        <source>to play</source>
        <translation>do rozegrania</translation>
    </message>
    <message>
        <source>No bracket yet: the draw has not been made.</source>
        <translation>Drabinki jeszcze nie ma: losowanie się nie odbyło.</translation>
    </message>
    <message>
        <source>Table %1</source>
        <translation>Stolik %1</translation>
    </message>
</context>
<context>
    <name>Dialogs</name>
    <message>
        <source>side %1</source>
        <translation>strona %1</translation>
    </message>
</context>
<context>
    <name>DrawDialog</name>
    <message>
        <source>The draw</source>
        <translation>Losowanie</translation>
    </message>
    <message>
        <source>Seed (recorded; anyone can re-run the draw)</source>
        <translation>Ziarno (zapisane; każdy może powtórzyć losowanie)</translation>
    </message>
    <message>
        <source>Drawn by the app</source>
        <translation>Losuje program</translation>
    </message>
    <message>
        <source>Line %1</source>
        <translation>Pozycja %1</translation>
    </message>
    <message>
        <source>Drawn at the table</source>
        <translation>Losowanie przy stole</translation>
    </message>
</context>
<context>
    <name>HeaderBar</name>
    <message>
        <source>sign-ups and check-in</source>
        <translation>zapisy i obecność</translation>
    </message>
    <message>
        <source>check-in closed: the draw</source>
        <translation>lista zamknięta: losowanie</translation>
    </message>
    <message>
        <source>the duels</source>
        <translation>pojedynki</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>zakończony</translation>
    </message>
    <message>
        <source>connected to the daemon</source>
        <translation>połączono z demonem</translation>
    </message>
    <message>
        <source>DEMO — no daemon</source>
        <translation>DEMO — bez demona</translation>
    </message>
    <message>
        <source>connecting…</source>
        <translation>łączenie…</translation>
    </message>
    <message>
        <source>NO CONNECTION — times shown may be stale</source>
        <translation>BRAK POŁĄCZENIA — czasy mogą być nieaktualne</translation>
    </message>
</context>
<context>
    <name>NewSessionDialog</name>
    <message>
        <source>New session</source>
        <translation>Nowa sesja</translation>
    </message>
    <message>
        <source>e.g. pt, sb, nd — small letters, digits, - or _</source>
        <translation>np. pt, sb, nd — małe litery, cyfry, - lub _</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Klucz</translation>
    </message>
    <message>
        <source>e.g. Friday 19.06, 15:00–17:30</source>
        <translation>np. Piątek 19.06, 15:00–17:30</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nazwa</translation>
    </message>
</context>
<context>
    <name>NoteDialog</name>
    <message>
        <source>Note in the timeline — table %1</source>
        <translation>Notatka w przebiegu — stolik %1</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Notatka</translation>
    </message>
</context>
<context>
    <name>OverrideDialog</name>
    <message>
        <source>Decide match %1</source>
        <translation>Rozstrzygnij pojedynek %1</translation>
    </message>
    <message>
        <source>Winner</source>
        <translation>Zwycięzca</translation>
    </message>
    <message>
        <source>dispute (§2.2.19)</source>
        <translation>spór (§2.2.19)</translation>
    </message>
    <message>
        <source>disqualification (§8.1)</source>
        <translation>dyskwalifikacja (§8.1)</translation>
    </message>
    <message>
        <source>other</source>
        <translation>inny</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Dlaczego</translation>
    </message>
    <message>
        <source>what happened — required, it is journaled</source>
        <translation>co się stało — wymagane, trafia do dziennika</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Powód</translation>
    </message>
</context>
<context>
    <name>PlayersTable</name>
    <message>
        <source>List</source>
        <translation>Lista</translation>
    </message>
    <message>
        <source>No.</source>
        <translation>Nr</translation>
    </message>
    <message>
        <source>Display name</source>
        <translation>Nazwa na ekranie</translation>
    </message>
    <message>
        <source>Full name</source>
        <translation>Imię i nazwisko</translation>
    </message>
    <message>
        <source>Phone</source>
        <translation>Telefon</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>main</source>
        <translation>główna</translation>
    </message>
    <message>
        <source>reserve</source>
        <translation>rezerwowa</translation>
    </message>
    <message>
        <source>walk-in</source>
        <translation>z sali</translation>
    </message>
    <message>
        <source>not here yet</source>
        <translation>jeszcze nie ma</translation>
    </message>
    <message>
        <source>present</source>
        <translation>na miejscu</translation>
    </message>
    <message>
        <source>absent</source>
        <translation>nieobecność</translation>
    </message>
    <message>
        <source>withdrawn</source>
        <translation>rezygnacja</translation>
    </message>
    <message>
        <source>in the bracket</source>
        <translation>w drabince</translation>
    </message>
    <message>
        <source>in place of %1</source>
        <translation>w miejsce: %1</translation>
    </message>
</context>
<context>
    <name>Podium</name>
    <message>
        <source>DUEL CHAMPION</source>
        <translation>MISTRZ POJEDYNKÓW</translation>
    </message>
</context>
<context>
    <name>RefereeWindow</name>
    <message>
        <source>needs the referee&apos;s token (--token)</source>
        <extracomment>How often the clocks are redrawn (a running clock&apos;s text changes once a second; 10 Hz keeps the change within a tenth of a second of the true instant). The longest sign-up file one import request carries (the API&apos;s limit for the CSV text). Reasons a sink gives for an unavailable action, translated for the tooltip.</extracomment>
        <translation>wymaga tokenu sędziego (--token)</translation>
    </message>
    <message>
        <source>not connected to the daemon</source>
        <translation>brak połączenia z demonem</translation>
    </message>
    <message>
        <source>no daemon: this is the demo state</source>
        <translation>brak demona: to stan demonstracyjny</translation>
    </message>
    <message>
        <source>the daemon does not offer this yet</source>
        <translation>demon jeszcze tego nie obsługuje</translation>
    </message>
    <message>
        <source>duelclock — referee</source>
        <translation>duelclock — sędzia</translation>
    </message>
    <message>
        <source>Bracket and tables</source>
        <translation>Drabinka i stoliki</translation>
    </message>
    <message>
        <source>Players and check-in</source>
        <translation>Zawodnicy i obecność</translation>
    </message>
    <message>
        <source>&amp;Session</source>
        <translation>&amp;Sesja</translation>
    </message>
    <message>
        <source>&amp;Table</source>
        <translation>S&amp;tolik</translation>
    </message>
    <message>
        <source>&amp;Match</source>
        <translation>&amp;Pojedynek</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Widok</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Język</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>Pomo&amp;c</translation>
    </message>
    <message>
        <source>Adjust time…</source>
        <translation>Korekta czasu…</translation>
    </message>
    <message>
        <source>Picture complete</source>
        <translation>Obrazek ułożony</translation>
    </message>
    <message>
        <source>Note…</source>
        <translation>Notatka…</translation>
    </message>
    <message>
        <source>Clear alerts</source>
        <translation>Usuń alerty</translation>
    </message>
    <message>
        <source>Put on a table…</source>
        <translation>Na stolik…</translation>
    </message>
    <message>
        <source>Toss…</source>
        <translation>Rzut…</translation>
    </message>
    <message>
        <source>Confirm result</source>
        <translation>Zatwierdź wynik</translation>
    </message>
    <message>
        <source>Override result…</source>
        <translation>Zmień wynik…</translation>
    </message>
    <message>
        <source>Walkover…</source>
        <translation>Walkower…</translation>
    </message>
    <message>
        <source>Start tie-break…</source>
        <translation>Rozpocznij dogrywkę…</translation>
    </message>
    <message>
        <source>Check in</source>
        <translation>Potwierdź obecność</translation>
    </message>
    <message>
        <source>Check out</source>
        <translation>Cofnij obecność</translation>
    </message>
    <message>
        <source>Close check-in (seats to reserves)</source>
        <translation>Zamknij listę obecności (miejsca dla rezerwowych)</translation>
    </message>
    <message>
        <source>Draw…</source>
        <translation>Losowanie…</translation>
    </message>
    <message>
        <source>Add a player…</source>
        <translation>Dodaj zawodnika…</translation>
    </message>
    <message>
        <source>Withdraw</source>
        <translation>Wycofaj</translation>
    </message>
    <message>
        <source>Import sign-ups (CSV)…</source>
        <translation>Importuj zapisy (CSV)…</translation>
    </message>
    <message>
        <source>New session…</source>
        <translation>Nowa sesja…</translation>
    </message>
    <message>
        <source>Show session</source>
        <translation>Pokaż sesję</translation>
    </message>
    <message>
        <source>Audience screen</source>
        <translation>Ekran dla widowni</translation>
    </message>
    <message>
        <source>Full screen</source>
        <translation>Pełny ekran</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Skróty klawiszowe</translation>
    </message>
    <message>
        <source>Select table %1</source>
        <translation>Wybierz stolik %1</translation>
    </message>
    <message>
        <source>Timeline: presses and decisions</source>
        <translation>Przebieg: naciśnięcia i decyzje</translation>
    </message>
    <message>
        <source>Pause / resume</source>
        <translation>Pauza / wznowienie</translation>
    </message>
    <message>
        <source>Select table 1–9</source>
        <translation>Wybierz stolik 1–9</translation>
    </message>
    <message>
        <source>There is no table %1.</source>
        <translation>Nie ma stolika %1.</translation>
    </message>
    <message>
        <source>No table selected</source>
        <translation>Nie wybrano stolika</translation>
    </message>
    <message>
        <source>Click a table or press Ctrl+1 … Ctrl+9.</source>
        <translation>Kliknij stolik albo naciśnij Ctrl+1 … Ctrl+9.</translation>
    </message>
    <message>
        <source>Table %1</source>
        <translation>Stolik %1</translation>
    </message>
    <message>
        <source>%1 pieces</source>
        <translation>%1 elementów</translation>
    </message>
    <message>
        <source>No match on this table.</source>
        <translation>Na tym stoliku nie ma pojedynku.</translation>
    </message>
    <message>
        <source>Match %1: %2 – %3 (%4)</source>
        <translation>Pojedynek %1: %2 – %3 (%4)</translation>
    </message>
    <message>
        <source>Match: none selected</source>
        <translation>Pojedynek: nie wybrano</translation>
    </message>
    <message>
        <source>select a table first</source>
        <translation>najpierw wybierz stolik</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Wznów</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pauza</translation>
    </message>
    <message>
        <source>the clock is not running</source>
        <translation>zegar nie chodzi</translation>
    </message>
    <message>
        <source>no alert on this table</source>
        <translation>brak alertów na tym stoliku</translation>
    </message>
    <message>
        <source>no duel running on this table</source>
        <translation>na tym stoliku nie trwa pojedynek</translation>
    </message>
    <message>
        <source>select a match first</source>
        <translation>najpierw wybierz pojedynek</translation>
    </message>
    <message>
        <source>the toss comes once the match is on a table</source>
        <translation>rzut odbywa się, gdy pojedynek jest już na stoliku</translation>
    </message>
    <message>
        <source>the duel has started: the toss is done</source>
        <translation>pojedynek trwa: rzut już się odbył</translation>
    </message>
    <message>
        <source>this match has no result to confirm</source>
        <translation>ten pojedynek nie ma wyniku do zatwierdzenia</translation>
    </message>
    <message>
        <source>this match has no two players to decide between</source>
        <translation>w tym pojedynku nie ma dwóch zawodników</translation>
    </message>
    <message>
        <source>only before the duel is played</source>
        <translation>tylko przed rozegraniem pojedynku</translation>
    </message>
    <message>
        <source>no match is waiting for a table</source>
        <translation>żaden pojedynek nie czeka na stolik</translation>
    </message>
    <message>
        <source>no tie-break is due</source>
        <translation>nie ma dogrywki do rozegrania</translation>
    </message>
    <message>
        <source>select a player in the list</source>
        <translation>wybierz zawodnika z listy</translation>
    </message>
    <message>
        <source>check-in is closed</source>
        <translation>lista obecności jest zamknięta</translation>
    </message>
    <message>
        <source>%1 resigns from this session?</source>
        <translation>%1 rezygnuje z udziału w tej sesji?</translation>
    </message>
    <message>
        <source>The sign-up form&apos;s export</source>
        <translation>Eksport formularza zapisów</translation>
    </message>
    <message>
        <source>CSV files (*.csv *.txt)</source>
        <translation>Pliki CSV (*.csv *.txt)</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>Nie można odczytać %1: %2</translation>
    </message>
    <message>
        <source>%1 is not a text file (neither UTF-8 nor Windows-1250).</source>
        <translation>%1 nie jest plikiem tekstowym (ani UTF-8, ani Windows-1250).</translation>
    </message>
    <message>
        <source>%1 is too long for one import (%2 characters; at most %3).</source>
        <translation>%1 jest za długi na jeden import (%2 znaków; najwyżej %3).</translation>
    </message>
    <message>
        <source>check-in is not open</source>
        <translation>lista obecności nie jest otwarta</translation>
    </message>
    <message>
        <source>the draw comes after check-in closes</source>
        <translation>losowanie następuje po zamknięciu listy obecności</translation>
    </message>
    <message>
        <source>sign-ups are imported once, into an empty session</source>
        <translation>zapisy importuje się raz, do pustej sesji</translation>
    </message>
    <message>
        <source>Sending: %1…</source>
        <translation>Wysyłanie: %1…</translation>
    </message>
    <message>
        <source>Done: %1</source>
        <translation>Wykonano: %1</translation>
    </message>
    <message>
        <source>Demo: %1 was not sent (no daemon).</source>
        <translation>Demo: %1 nie wysłano (brak demona).</translation>
    </message>
    <message>
        <source>Not done: %1 — %2</source>
        <translation>Nie wykonano: %1 — %2</translation>
    </message>
    <message>
        <source>The daemon refused</source>
        <translation>Demon odmówił</translation>
    </message>
    <message>
        <source>Select a table first (Ctrl+1 … Ctrl+9).</source>
        <translation>Najpierw wybierz stolik (Ctrl+1 … Ctrl+9).</translation>
    </message>
    <message>
        <source>Start the tie-break %1</source>
        <translation>Rozpocznij dogrywkę %1</translation>
    </message>
    <message>
        <source>Close check-in</source>
        <translation>Zamknij listę obecności</translation>
    </message>
    <message>
        <source>Close check-in now? Seats of absent players go to the reserves in order, then to walk-ins. This fixes the field for the draw.</source>
        <translation>Zamknąć teraz listę obecności? Miejsca nieobecnych przechodzą na rezerwowych w kolejności listy, potem na osoby z sali. To ustala skład do losowania.</translation>
    </message>
</context>
<context>
    <name>RefusalsLabel</name>
    <message>
        <source>Refused sign-ups (%1):</source>
        <translation>Odrzucone zgłoszenia (%1):</translation>
    </message>
    <message>
        <source>line %1: %2 — %3</source>
        <translation>wiersz %1: %2 — %3</translation>
    </message>
    <message>
        <source>under the minimum age (§1.9)</source>
        <translation>poniżej minimalnego wieku (§1.9)</translation>
    </message>
    <message>
        <source>the same person as line %1 (§1.14)</source>
        <translation>ta sama osoba co w wierszu %1 (§1.14)</translation>
    </message>
    <message>
        <source>the main and reserve lists are full (§1.11)</source>
        <translation>lista główna i rezerwowa są pełne (§1.11)</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Skróty klawiszowe</translation>
    </message>
</context>
<context>
    <name>TablesView</name>
    <message>
        <source>No duel on a clock right now.</source>
        <extracomment>A table card was clicked: its number. Draw only this table (the referee&apos;s detail panel).</extracomment>
        <translation>W tej chwili nie trwa żaden pojedynek.</translation>
    </message>
    <message>
        <source>No tables yet.</source>
        <translation>Nie ma jeszcze stolików.</translation>
    </message>
    <message>
        <source>Table %1</source>
        <translation>Stolik %1</translation>
    </message>
    <message>
        <source>tie-break</source>
        <translation>dogrywka</translation>
    </message>
    <message>
        <source>side %1</source>
        <translation>strona %1</translation>
    </message>
    <message>
        <source>moves %1</source>
        <translation>ruchy %1</translation>
    </message>
    <message>
        <source>ignored %1</source>
        <translation>zignorowane %1</translation>
    </message>
</context>
<context>
    <name>Terms</name>
    <message>
        <source>ready</source>
        <translation>gotowy</translation>
    </message>
    <message>
        <source>running</source>
        <translation>chodzi</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>pauza</translation>
    </message>
    <message>
        <source>flag fell</source>
        <translation>flaga</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>czeka</translation>
    </message>
    <message>
        <source>to play</source>
        <translation>do rozegrania</translation>
    </message>
    <message>
        <source>live</source>
        <translation>na żywo</translation>
    </message>
    <message>
        <source>to confirm</source>
        <translation>do zatwierdzenia</translation>
    </message>
    <message>
        <source>tie-break</source>
        <translation>dogrywka</translation>
    </message>
    <message>
        <source>decided</source>
        <translation>rozstrzygnięty</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>anulowany</translation>
    </message>
    <message>
        <source>on time</source>
        <translation>na czas</translation>
    </message>
    <message>
        <source>flag</source>
        <translation>flaga</translation>
    </message>
    <message>
        <source>same time</source>
        <translation>równy czas</translation>
    </message>
    <message>
        <source>referee</source>
        <translation>sędzia</translation>
    </message>
    <message>
        <source>bye</source>
        <translation>wolny los</translation>
    </message>
    <message>
        <source>walkover</source>
        <translation>walkower</translation>
    </message>
    <message>
        <source>clock connected</source>
        <translation>zegar podłączony</translation>
    </message>
    <message>
        <source>clock disconnected</source>
        <translation>zegar odłączony</translation>
    </message>
    <message>
        <source>clock not seen yet</source>
        <translation>zegar jeszcze się nie zgłosił</translation>
    </message>
    <message>
        <source>no clock</source>
        <translation>bez zegara</translation>
    </message>
    <message>
        <source>Recovered after a daemon restart: the running side was charged for the gap. Check the clock.</source>
        <translation>Odtworzono po restarcie demona: stronie, której czas biegł, doliczono przerwę. Sprawdź zegar.</translation>
    </message>
    <message>
        <source>Recovered after a machine restart: paused at the last recorded instant. Check, then resume.</source>
        <translation>Odtworzono po restarcie komputera: pauza w ostatniej zapisanej chwili. Sprawdź, potem wznów.</translation>
    </message>
    <message>
        <source>The clock kept presses across its restart; their exact time is unknown (an upper bound was used). Check the times.</source>
        <translation>Zegar przechował naciśnięcia przez swój restart; ich dokładny czas jest nieznany (przyjęto górne ograniczenie). Sprawdź czasy.</translation>
    </message>
    <message>
        <source>A flag fell.</source>
        <translation>Spadła flaga.</translation>
    </message>
    <message>
        <source>The clock was disconnected.</source>
        <translation>Zegar został odłączony.</translation>
    </message>
    <message>
        <source>press</source>
        <translation>naciśnięcie</translation>
    </message>
    <message>
        <source>pause</source>
        <translation>pauza</translation>
    </message>
    <message>
        <source>resume</source>
        <translation>wznowienie</translation>
    </message>
    <message>
        <source>time adjusted</source>
        <translation>korekta czasu</translation>
    </message>
    <message>
        <source>clock set</source>
        <translation>zegar ustawiony</translation>
    </message>
    <message>
        <source>referee button</source>
        <translation>przycisk sędziego</translation>
    </message>
    <message>
        <source>alert</source>
        <translation>alert</translation>
    </message>
    <message>
        <source>alert cleared</source>
        <translation>alert usunięty</translation>
    </message>
    <message>
        <source>note</source>
        <translation>notatka</translation>
    </message>
    <message>
        <source>table created</source>
        <translation>stolik utworzony</translation>
    </message>
    <message>
        <source>daemon started</source>
        <translation>demon uruchomiony</translation>
    </message>
    <message>
        <source>match on this table</source>
        <translation>pojedynek na stoliku</translation>
    </message>
    <message>
        <source>duel ended</source>
        <translation>koniec pojedynku</translation>
    </message>
    <message>
        <source>result confirmed</source>
        <translation>wynik zatwierdzony</translation>
    </message>
    <message>
        <source>result overridden</source>
        <translation>wynik zmieniony</translation>
    </message>
    <message>
        <source>started the clock</source>
        <translation>uruchomiło zegar</translation>
    </message>
    <message>
        <source>ignored: not this side&apos;s turn</source>
        <translation>zignorowane: nie kolej tej strony</translation>
    </message>
    <message>
        <source>ignored: clock paused</source>
        <translation>zignorowane: zegar na pauzie</translation>
    </message>
    <message>
        <source>ignored: flag already fell</source>
        <translation>zignorowane: flaga już spadła</translation>
    </message>
    <message>
        <source>repeat of a press already counted</source>
        <translation>powtórzenie naciśnięcia już policzonego</translation>
    </message>
    <message>
        <source>Final</source>
        <translation>Finał</translation>
    </message>
    <message>
        <source>3rd place</source>
        <translation>O 3. miejsce</translation>
    </message>
    <message>
        <source>Semi-final</source>
        <translation>Półfinał</translation>
    </message>
    <message>
        <source>Quarter-final</source>
        <translation>Ćwierćfinał</translation>
    </message>
    <message>
        <source>Round of 16</source>
        <translation>Eliminacje</translation>
    </message>
    <message>
        <source>Round of 32</source>
        <translation>1/16 finału</translation>
    </message>
    <message>
        <source>time adjustment</source>
        <translation>korekta czasu</translation>
    </message>
    <message>
        <source>clearing alerts</source>
        <translation>usuwanie alertów</translation>
    </message>
    <message>
        <source>match to a table</source>
        <translation>pojedynek na stolik</translation>
    </message>
    <message>
        <source>toss</source>
        <translation>rzut</translation>
    </message>
    <message>
        <source>picture complete</source>
        <translation>obrazek ułożony</translation>
    </message>
    <message>
        <source>result confirmation</source>
        <translation>zatwierdzenie wyniku</translation>
    </message>
    <message>
        <source>result override</source>
        <translation>zmiana wyniku</translation>
    </message>
    <message>
        <source>tie-break start</source>
        <translation>start dogrywki</translation>
    </message>
    <message>
        <source>check-in</source>
        <translation>obecność</translation>
    </message>
    <message>
        <source>check-out</source>
        <translation>nieobecność</translation>
    </message>
    <message>
        <source>closing check-in</source>
        <translation>zamknięcie listy obecności</translation>
    </message>
    <message>
        <source>draw</source>
        <translation>losowanie</translation>
    </message>
    <message>
        <source>adding a player</source>
        <translation>dodanie zawodnika</translation>
    </message>
    <message>
        <source>withdrawal</source>
        <translation>wycofanie</translation>
    </message>
    <message>
        <source>sign-up import</source>
        <translation>import zapisów</translation>
    </message>
    <message>
        <source>new session</source>
        <translation>nowa sesja</translation>
    </message>
    <message>
        <source>%1 tie-break %2</source>
        <translation>%1 dogrywka %2</translation>
    </message>
</context>
<context>
    <name>Timeline</name>
    <message>
        <source>#</source>
        <extracomment>Display names by player id, for the events that name a player (a toss, a decision).</extracomment>
        <translation>#</translation>
    </message>
    <message>
        <source>Since set</source>
        <translation>Od ustawienia</translation>
    </message>
    <message>
        <source>Think</source>
        <translation>Namysł</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Zdarzenie</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Szczegóły</translation>
    </message>
    <message>
        <source>winner</source>
        <translation>zwycięzca</translation>
    </message>
    <message>
        <source>absent</source>
        <translation>nieobecny</translation>
    </message>
    <message>
        <source>at side A</source>
        <translation>po stronie A</translation>
    </message>
    <message>
        <source>clock&apos;s own time %1 ns</source>
        <translation>czas własny zegara %1 ns</translation>
    </message>
</context>
<context>
    <name>TossDialog</name>
    <message>
        <source>Toss — %1</source>
        <translation>Rzut — %1</translation>
    </message>
    <message>
        <source>Who won the toss? Their time runs first; the other player starts the clock.</source>
        <translation>Kto wygrał rzut? Jego czas biegnie pierwszy; drugi zawodnik uruchamia zegar.</translation>
    </message>
</context>
<context>
    <name>WalkoverDialog</name>
    <message>
        <source>Walkover in %1</source>
        <translation>Walkower w %1</translation>
    </message>
    <message>
        <source>Absent</source>
        <translation>Nieobecny</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Powód</translation>
    </message>
</context>
</TS>

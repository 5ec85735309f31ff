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
        <extracomment>A typed reason&apos;s longest form (the actions&apos; own limit).</extracomment>
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
    <name>AppealDialog</name>
    <message>
        <source>Appeal to the chief arbiter</source>
        <translation>Odwołanie do sędziego głównego</translation>
    </message>
    <message>
        <source>what the player appeals against — required</source>
        <translation>od czego zawodnik się odwołuje — wymagane</translation>
    </message>
    <message>
        <source>Appeal</source>
        <translation>Odwołanie</translation>
    </message>
    <message>
        <source>the chief arbiter&apos;s decision — required, final</source>
        <translation>decyzja sędziego głównego — wymagana, ostateczna</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>Decyzja</translation>
    </message>
    <message>
        <source>no change of result</source>
        <translation>bez zmiany wyniku</translation>
    </message>
    <message>
        <source>Result set</source>
        <translation>Ustalony wynik</translation>
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
    <message>
        <source>Start the tie-break of %1</source>
        <translation>Dogrywka meczu %1</translation>
    </message>
</context>
<context>
    <name>AudienceWindow</name>
    <message>
        <source>duelclock — audience</source>
        <extracomment>How long a hall signal stays across the screen.</extracomment>
        <translation>duelclock — widownia</translation>
    </message>
    <message>
        <source>LIVE NOW</source>
        <translation>TERAZ NA ŻYWO</translation>
    </message>
</context>
<context>
    <name>BoardsTable</name>
    <message>
        <source>Board</source>
        <translation>Szachownica</translation>
    </message>
    <message>
        <source>White</source>
        <translation>Białe</translation>
    </message>
    <message>
        <source>School</source>
        <translation>Szkoła</translation>
    </message>
    <message>
        <source>Pts</source>
        <translation>Pkt</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Wynik</translation>
    </message>
    <message>
        <source>Black</source>
        <translation>Czarne</translation>
    </message>
    <message>
        <source>Entered by</source>
        <translation>Wpisał(a)</translation>
    </message>
    <message>
        <source>To the arbiter</source>
        <translation>Dla sędziego</translation>
    </message>
    <message>
        <source>appeal: %1 (final)</source>
        <translation>odwołanie: %1 (ostateczne)</translation>
    </message>
    <message>
        <source>illegal moves claimed: %1</source>
        <translation>reklamowane nieprawidłowe posunięcia: %1</translation>
    </message>
    <message>
        <source>flag</source>
        <translation>flaga</translation>
    </message>
    <message>
        <source>2nd illegal move</source>
        <translation>2. nieprawidłowe posunięcie</translation>
    </message>
    <message>
        <source>▶ %1 proposed (%2)</source>
        <translation>▶ proponowany wynik %1 (%2)</translation>
    </message>
</context>
<context>
    <name>BracketWidget</name>
    <message>
        <source>loser of %1</source>
        <extracomment>A card was clicked: its match id.</extracomment>
        <translation>przegrany %1</translation>
    </message>
    <message>
        <source>winner of %1</source>
        <translation>zwycięzca %1</translation>
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
        <source>No bracket yet: the draw has not been made.</source>
        <translation>Drabinki jeszcze nie ma: losowanie się nie odbyło.</translation>
    </message>
    <message>
        <source>Table %1</source>
        <translation>Stolik %1</translation>
    </message>
</context>
<context>
    <name>ChessPanel</name>
    <message>
        <source>Board number, Enter, then one key: 1 0 = (5) + − · Enter: the proposal · Ctrl+Z or u: undo</source>
        <translation>Numer szachownicy, Enter, potem jeden klawisz: 1 0 = (5) + − · Enter: propozycja · Ctrl+Z lub u: cofnij</translation>
    </message>
    <message>
        <source>Result:</source>
        <translation>Wynik:</translation>
    </message>
    <message>
        <source>Replace it knowingly</source>
        <translation>Zastąp świadomie</translation>
    </message>
    <message>
        <source>Round</source>
        <translation>Runda</translation>
    </message>
    <message>
        <source>Standings</source>
        <translation>Klasyfikacja</translation>
    </message>
    <message>
        <source>%1 — round %2 of %3 · boards %4–%5 · %6 players</source>
        <translation>%1 — runda %2 z %3 · szachownice %4–%5 · zawodników: %6</translation>
    </message>
    <message>
        <source>Bye: %1</source>
        <translation>Pauza: %1</translation>
    </message>
    <message>
        <source>Not paired: %1</source>
        <translation>Nieskojarzeni: %1</translation>
    </message>
    <message>
        <source>Closed as 0–0 (no result reported): boards %1</source>
        <translation>Zamknięte jako 0–0 (nie zgłoszono wyniku): szachownice %1</translation>
    </message>
    <message>
        <source>Absent from round 1, withdrawn before round 2 unless reported:</source>
        <translation>Nieobecni w 1. rundzie, wycofani przed 2. rundą, jeśli się nie zgłoszą:</translation>
    </message>
    <message>
        <source>%1 reported</source>
        <translation>%1 zgłosił(a) się</translation>
    </message>
    <message>
        <source>No group plays on board %1 (the hall&apos;s boards: %2)</source>
        <translation>Na szachownicy %1 nie gra żadna grupa (szachownice sali: %2)</translation>
    </message>
    <message>
        <source>Board %1</source>
        <translation>Szachownica %1</translation>
    </message>
    <message>
        <source>not in a round being played (type a result: the daemon answers)</source>
        <translation>nie w trwającej rundzie (wpisz wynik: odpowie demon)</translation>
    </message>
    <message>
        <source>has %1 (%2)</source>
        <translation>ma %1 (%2)</translation>
    </message>
    <message>
        <source>proposed %1: Enter accepts</source>
        <translation>propozycja %1: Enter ją przyjmuje</translation>
    </message>
    <message>
        <source>type 1 0 = + −</source>
        <translation>wpisz 1 0 = + −</translation>
    </message>
    <message>
        <source>Board %1 has no proposal: type its result</source>
        <translation>Szachownica %1 nie ma propozycji: wpisz jej wynik</translation>
    </message>
    <message>
        <source>Board %1: %2 sent…</source>
        <translation>Szachownica %1: wysłano %2…</translation>
    </message>
    <message>
        <source>Board %1: %2 entered</source>
        <translation>Szachownica %1: wpisano %2</translation>
    </message>
    <message>
        <source>Board %1 not entered: %2</source>
        <translation>Szachownica %1: nie wpisano — %2</translation>
    </message>
    <message>
        <source>No group plays on board %1</source>
        <translation>Na szachownicy %1 nie gra żadna grupa</translation>
    </message>
    <message>
        <source>Nothing entered here to take back</source>
        <translation>Na tym stanowisku nic nie wpisano, nie ma czego cofnąć</translation>
    </message>
    <message>
        <source>Board %1: result taken back</source>
        <translation>Szachownica %1: wynik cofnięty</translation>
    </message>
    <message>
        <source>Board %1: not taken back: %2</source>
        <translation>Szachownica %1: nie cofnięto — %2</translation>
    </message>
    <message>
        <source>Board %1: taking the result back…</source>
        <translation>Szachownica %1: cofanie wyniku…</translation>
    </message>
</context>
<context>
    <name>ChessScreen</name>
    <message>
        <source>Round %1 starts in</source>
        <extracomment>How long a page stays on the screen. The smallest row a page uses (pixels at 1080 lines): smaller is not read from the back.</extracomment>
        <translation>Runda %1 za</translation>
    </message>
    <message>
        <source>Round %1 was planned at</source>
        <translation>Runda %1 planowo o</translation>
    </message>
    <message>
        <source>Round %1 of %2 — pairings</source>
        <translation>Runda %1 z %2 — kojarzenie</translation>
    </message>
    <message>
        <source>Standings after round %1 of %2</source>
        <translation>Klasyfikacja po %1. rundzie z %2</translation>
    </message>
    <message>
        <source>Start list: %1 players</source>
        <translation>Lista startowa: zawodników: %1</translation>
    </message>
    <message>
        <source>%1 min behind the plan</source>
        <translation>opóźnienie wobec planu: %1 min</translation>
    </message>
    <message>
        <source>No chess group yet.</source>
        <translation>Nie ma jeszcze grup szachowych.</translation>
    </message>
    <message>
        <source>School</source>
        <translation>Szkoła</translation>
    </message>
    <message>
        <source>Board no.</source>
        <translation>Nr</translation>
    </message>
    <message>
        <source>White</source>
        <translation>Białe</translation>
    </message>
    <message>
        <source>Pts</source>
        <translation>Pkt</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Wynik</translation>
    </message>
    <message>
        <source>Black</source>
        <translation>Czarne</translation>
    </message>
    <message>
        <source>Bye: %1</source>
        <translation>Pauza: %1</translation>
    </message>
    <message>
        <source>Place</source>
        <translation>Miejsce</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nazwisko i imię</translation>
    </message>
</context>
<context>
    <name>ChessWithdrawDialog</name>
    <message>
        <source>Withdraw a player</source>
        <translation>Wycofaj zawodnika</translation>
    </message>
    <message>
        <source>Player</source>
        <translation>Zawodnik</translation>
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
    <name>ClaimDialog</name>
    <message>
        <source>Illegal move claimed</source>
        <translation>Reklamacja nieprawidłowego posunięcia</translation>
    </message>
    <message>
        <source>The first claimed illegal move of a player has no consequence; the second proposes the loss of the game to the arbiter.</source>
        <translation>Pierwsze zareklamowane nieprawidłowe posunięcie zawodnika nie ma konsekwencji; drugie — sędzia dostaje propozycję przegranej partii.</translation>
    </message>
</context>
<context>
    <name>Dialogs</name>
    <message>
        <source>side %1</source>
        <translation>strona %1</translation>
    </message>
    <message>
        <source>e.g. pt, sb, relay — a letter first, then letters, digits, - or _</source>
        <translation>np. pt, sb, sztafeta — najpierw litera, potem litery, cyfry, - lub _</translation>
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
    <name>EntryTableDialog</name>
    <message>
        <source>Check in</source>
        <translation>Potwierdź obecność</translation>
    </message>
    <message>
        <source>Seat at a table</source>
        <translation>Przydziel stolik</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>Uczestnik</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>Stolik</translation>
    </message>
</context>
<context>
    <name>FinishDialog</name>
    <message>
        <source>Record a finish</source>
        <translation>Zapisz ukończenie</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>Zespół</translation>
    </message>
    <message>
        <source>Missing pieces</source>
        <translation>Brakujące elementy</translation>
    </message>
</context>
<context>
    <name>GroupList</name>
    <message>
        <source>Group</source>
        <extracomment>The colours of the desk&apos;s chess view (a proposal to look at, a lagging group, a refusal).</extracomment>
        <translation>Grupa</translation>
    </message>
    <message>
        <source>Boards</source>
        <translation>Szachownice</translation>
    </message>
    <message>
        <source>Round</source>
        <translation>Runda</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>Etap</translation>
    </message>
    <message>
        <source>Missing</source>
        <translation>Brak wyników</translation>
    </message>
    <message>
        <source>Next round</source>
        <translation>Następna runda</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>Plan</translation>
    </message>
    <message>
        <source>start list</source>
        <translation>lista startowa</translation>
    </message>
    <message>
        <source>playing</source>
        <translation>runda trwa</translation>
    </message>
    <message>
        <source>between rounds</source>
        <translation>między rundami</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>zakończona</translation>
    </message>
    <message>
        <source>on time</source>
        <translation>zgodnie z planem</translation>
    </message>
    <message>
        <source>⚠ LATE by %1 min</source>
        <translation>⚠ OPÓŹNIENIE %1 min</translation>
    </message>
</context>
<context>
    <name>HallWidget</name>
    <message>
        <source>the event&apos;s time is over</source>
        <extracomment>Medal colours of places 1–3 (the results&apos; printout uses the same).</extracomment>
        <translation>czas imprezy minął</translation>
    </message>
    <message>
        <source>start in %1</source>
        <translation>start za %1</translation>
    </message>
    <message>
        <source>not started</source>
        <translation>nierozpoczęta</translation>
    </message>
    <message>
        <source>no more signals</source>
        <translation>nie będzie już sygnałów</translation>
    </message>
    <message>
        <source>%1 in %2</source>
        <translation>%1 za %2</translation>
    </message>
    <message>
        <source>next signal in %1 (at %2)</source>
        <translation>następny sygnał za %1 (o %2)</translation>
    </message>
    <message>
        <source>signals given: %1 of %2</source>
        <translation>sygnały: %1 z %2</translation>
    </message>
    <message>
        <source>every %1</source>
        <translation>co %1</translation>
    </message>
    <message>
        <source>counting up</source>
        <translation>czas liczony w górę</translation>
    </message>
    <message>
        <source>paused %1</source>
        <translation>pauzy %1</translation>
    </message>
    <message>
        <source>adjusted %1</source>
        <translation>korekty %1</translation>
    </message>
    <message>
        <source>No timed event shown.</source>
        <translation>Nie pokazano imprezy na czas.</translation>
    </message>
    <message>
        <source>%1 pieces</source>
        <translation>%1 el.</translation>
    </message>
    <message>
        <source>not classified</source>
        <translation>bez klasyfikacji</translation>
    </message>
    <message>
        <source>over %1 missing: void</source>
        <translation>ponad %1 braków: nieważne</translation>
    </message>
    <message>
        <source>after the end</source>
        <translation>po czasie</translation>
    </message>
    <message>
        <source>main list</source>
        <translation>lista główna</translation>
    </message>
    <message>
        <source>reserve</source>
        <translation>rezerwa</translation>
    </message>
    <message>
        <source>walk-in</source>
        <translation>z sali</translation>
    </message>
    <message>
        <source>place</source>
        <translation>miejsce</translation>
    </message>
    <message>
        <source>entry</source>
        <translation>uczestnicy</translation>
    </message>
    <message>
        <source>table</source>
        <translation>stolik</translation>
    </message>
    <message>
        <source>time / pieces</source>
        <translation>czas / elementy</translation>
    </message>
    <message>
        <source>bag 2</source>
        <translation>woreczek 2</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>braki</translation>
    </message>
    <message>
        <source>change %1</source>
        <translation>zmiana %1</translation>
    </message>
    <message>
        <source>stayed from the start: %1</source>
        <translation>od początku bez przerwy: %1</translation>
    </message>
    <message>
        <source>replacements: %1</source>
        <translation>zmiany osób: %1</translation>
    </message>
    <message>
        <source>table %1</source>
        <translation>stolik %1</translation>
    </message>
</context>
<context>
    <name>HeaderBar</name>
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
        <source>New Puzzle Duel session</source>
        <translation>Nowa sesja Puzzlowego Pojedynku</translation>
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
    <name>NewTimerDialog</name>
    <message>
        <source>New timed event</source>
        <translation>Nowa impreza na czas</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Klucz</translation>
    </message>
    <message>
        <source>e.g. Pairs relay</source>
        <translation>np. Sztafeta par</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nazwa</translation>
    </message>
    <message>
        <source>none: count up</source>
        <translation>bez limitu: czas w górę</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>Czas trwania</translation>
    </message>
    <message>
        <source>no signals</source>
        <translation>bez sygnałów</translation>
    </message>
    <message>
        <source>A signal every</source>
        <translation>Sygnał co</translation>
    </message>
    <message>
        <source>Stations (entry = table, …)</source>
        <translation>Stanowiska (zespół = stolik, …)</translation>
    </message>
</context>
<context>
    <name>NewZoneDialog</name>
    <message>
        <source>New contest of the puzzle zone</source>
        <translation>Nowa konkurencja strefy puzzli</translation>
    </message>
    <message>
        <source>pairs relay (60 min, ZMIANA every 5 min)</source>
        <translation>sztafeta par (60 min, ZMIANA co 5 min)</translation>
    </message>
    <message>
        <source>blind puzzling (60 min, bag 2 split)</source>
        <translation>puzzlowanie w ciemno (60 min, międzyczas po woreczku 2)</translation>
    </message>
    <message>
        <source>team event (180 min, teams of 3–4)</source>
        <translation>turniej drużynowy (180 min, drużyny 3–4 osób)</translation>
    </message>
    <message>
        <source>S(witcher) rotation (a change every 15 min)</source>
        <translation>rotacja S(witcher) (zmiana co 15 min)</translation>
    </message>
    <message>
        <source>Contest</source>
        <translation>Konkurencja</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Klucz</translation>
    </message>
    <message>
        <source>as the regulations name it</source>
        <translation>jak w regulaminie</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nazwa</translation>
    </message>
</context>
<context>
    <name>NodesDialog</name>
    <message>
        <source>Table nodes</source>
        <translation>Węzły</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Węzeł</translation>
    </message>
    <message>
        <source>Link</source>
        <translation>Łącze</translation>
    </message>
    <message>
        <source>Tables</source>
        <translation>Stoliki</translation>
    </message>
    <message>
        <source>Lag</source>
        <translation>Opóźnienie</translation>
    </message>
    <message>
        <source>Restarts</source>
        <translation>Restarty</translation>
    </message>
    <message>
        <source>Outages</source>
        <translation>Przerwy</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>Stolik</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Polecenie</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>Wysłane</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Stan</translation>
    </message>
    <message>
        <source>Asking the daemon for its table nodes…</source>
        <translation>Pytam demona o jego węzły…</translation>
    </message>
    <message>
        <source>This daemon has no table nodes: it times every table itself.</source>
        <translation>Ten demon nie ma węzłów: sam mierzy czas na każdym stoliku.</translation>
    </message>
    <message>
        <source>Commands not done</source>
        <translation>Polecenia niewykonane</translation>
    </message>
    <message>
        <source>Commands not done: none.</source>
        <translation>Polecenia niewykonane: brak.</translation>
    </message>
    <message>
        <source>▼ The desk is not connected to the broker: every node&apos;s tables are shown as last known.</source>
        <translation>▼ Stanowisko sędziego nie ma połączenia z brokerem: stoliki wszystkich węzłów pokazane są w ostatnim znanym stanie.</translation>
    </message>
    <message>
        <source>▲ The desk is connected to the broker; no table node has been heard yet.</source>
        <translation>▲ Stanowisko sędziego jest połączone z brokerem; żaden węzeł jeszcze się nie odezwał.</translation>
    </message>
    <message>
        <source>▲ The desk is connected to the broker; nodes connected: %1 of %2.</source>
        <translation>▲ Stanowisko sędziego jest połączone z brokerem; połączone węzły: %1 z %2.</translation>
    </message>
    <message>
        <source>connected since %1</source>
        <translation>połączony od %1</translation>
    </message>
    <message>
        <source>disconnected since %1</source>
        <translation>rozłączony od %1</translation>
    </message>
    <message>
        <source>rows behind: %1</source>
        <translation>zaległe wiersze: %1</translation>
    </message>
    <message>
        <source>not heard</source>
        <translation>brak sygnału</translation>
    </message>
    <message>
        <source>heard just now</source>
        <translation>sygnał przed chwilą</translation>
    </message>
    <message>
        <source>heard %1 s ago</source>
        <translation>sygnał %1 s temu</translation>
    </message>
    <message>
        <source>outage since %1, still out</source>
        <translation>przerwa od %1, trwa</translation>
    </message>
    <message>
        <source>outage %1 s, %2–%3</source>
        <translation>przerwa %1 s, %2–%3</translation>
    </message>
    <message>
        <source>none</source>
        <translation>brak</translation>
    </message>
    <message>
        <source>sent, waiting for the node</source>
        <translation>wysłane, czeka na węzeł</translation>
    </message>
    <message>
        <source>refused by the node: %1</source>
        <translation>odrzucone przez węzeł: %1</translation>
    </message>
    <message>
        <source>not delivered: not done</source>
        <translation>niedostarczone: nie wykonane</translation>
    </message>
    <message>
        <source>Table %1</source>
        <translation>Stolik %1</translation>
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
    <name>PairAllDialog</name>
    <message>
        <source>Pair all ready groups</source>
        <translation>Kojarz wszystkie gotowe grupy</translation>
    </message>
    <message>
        <source>Pairing %1 — round %2 (%3 of %4)</source>
        <translation>Kojarzenie: %1 — runda %2 (%3 z %4)</translation>
    </message>
    <message>
        <source>Paired %1 of %2 groups.</source>
        <translation>Skojarzono grupy: %1 z %2.</translation>
    </message>
    <message>
        <source>Not paired:</source>
        <translation>Nie skojarzono:</translation>
    </message>
</context>
<context>
    <name>PeopleDialog</name>
    <message>
        <source>People and their data (RODO)</source>
        <translation>Osoby i ich dane (RODO)</translation>
    </message>
    <message>
        <source>Name, e-mail or phone</source>
        <translation>Imię i nazwisko, e-mail lub telefon</translation>
    </message>
    <message>
        <source>Why (required: every look is recorded)</source>
        <translation>Dlaczego (wymagane: każde sprawdzenie jest zapisywane)</translation>
    </message>
    <message>
        <source>Find</source>
        <translation>Szukaj</translation>
    </message>
    <message>
        <source>Person</source>
        <translation>Osoba</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Imię i nazwisko</translation>
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
        <source>Events</source>
        <translation>Imprezy</translation>
    </message>
    <message>
        <source>Export for the person…</source>
        <translation>Eksport dla osoby…</translation>
    </message>
    <message>
        <source>Restrict processing</source>
        <translation>Ogranicz przetwarzanie</translation>
    </message>
    <message>
        <source>Erase…</source>
        <translation>Usuń dane…</translation>
    </message>
    <message>
        <source>Say why first: every look at people&apos;s data is recorded.</source>
        <translation>Najpierw podaj powód: każde sprawdzenie danych osobowych jest zapisywane.</translation>
    </message>
    <message>
        <source>Asking the daemon…</source>
        <translation>Pytam demona…</translation>
    </message>
    <message>
        <source>Found: %1 (recorded in the journal at %2)</source>
        <translation>Znaleziono: %1 (zapisane w dzienniku pod numerem %2)</translation>
    </message>
    <message>
        <source>Choose one person in the list.</source>
        <translation>Wybierz jedną osobę z listy.</translation>
    </message>
    <message>
        <source>Save the person&apos;s data</source>
        <translation>Zapisz dane osoby</translation>
    </message>
    <message>
        <source>Saved: %1</source>
        <translation>Zapisano: %1</translation>
    </message>
    <message>
        <source>Sent: restrict %1</source>
        <translation>Wysłano: ograniczenie przetwarzania %1</translation>
    </message>
    <message>
        <source>Erase</source>
        <translation>Usuń dane</translation>
    </message>
    <message>
        <source>Erase everything held about %1? Results stay, under a stand-in name. No undo.</source>
        <translation>Usunąć wszystkie dane osoby %1? Wyniki zostaną, pod zastępczym oznaczeniem. Tego nie da się cofnąć.</translation>
    </message>
    <message>
        <source>Sent: erase %1</source>
        <translation>Wysłano: usunięcie danych %1</translation>
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
    <name>ReasonDialog</name>
    <message>
        <source>why (optional)</source>
        <translation>dlaczego (nieobowiązkowe)</translation>
    </message>
    <message>
        <source>why — required</source>
        <translation>dlaczego — wymagane</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Powód</translation>
    </message>
</context>
<context>
    <name>RefereeWindow</name>
    <message>
        <source>duelclock — referee</source>
        <extracomment>How often the clocks are redrawn (a running clock&apos;s text changes once a second; 10 Hz keeps the change within a tenth of a second of the true instant). The most a sign-up file&apos;s text may take in one request: the action takes up to ``MAX_SIGNUPS_TEXT`` characters, but a request is one line of at most ``MAX_LINE_BYTES`` (the rest of the line: the request&apos;s own fields and JSON&apos;s quoting).</extracomment>
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
        <source>Find a player by name or number (Enter: check in)</source>
        <translation>Znajdź zawodnika po imieniu lub numerze (Enter: obecny)</translation>
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
        <source>T&amp;imer</source>
        <translation>&amp;Czas imprezy</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Widok</translation>
    </message>
    <message>
        <source>C&amp;hess</source>
        <translation>S&amp;zachy</translation>
    </message>
    <message>
        <source>Pair the next round</source>
        <translation>Kojarz następną rundę</translation>
    </message>
    <message>
        <source>Pair all ready groups…</source>
        <translation>Kojarz wszystkie gotowe grupy…</translation>
    </message>
    <message>
        <source>Close the round…</source>
        <translation>Zamknij rundę…</translation>
    </message>
    <message>
        <source>Illegal move claimed…</source>
        <translation>Nieprawidłowe posunięcie…</translation>
    </message>
    <message>
        <source>Appeal…</source>
        <translation>Odwołanie…</translation>
    </message>
    <message>
        <source>Withdraw a player…</source>
        <translation>Wycofaj zawodnika…</translation>
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
        <source>Bag 2 verified…</source>
        <translation>Woreczek 2 sprawdzony…</translation>
    </message>
    <message>
        <source>Counted pieces…</source>
        <translation>Policzone elementy…</translation>
    </message>
    <message>
        <source>Missing pieces…</source>
        <translation>Brakujące elementy…</translation>
    </message>
    <message>
        <source>Void…</source>
        <translation>Dyskwalifikacja…</translation>
    </message>
    <message>
        <source>Confirm the ranking</source>
        <translation>Zatwierdź ranking</translation>
    </message>
    <message>
        <source>Replace a person…</source>
        <translation>Zmiana osoby…</translation>
    </message>
    <message>
        <source>Table done…</source>
        <translation>Stolik ułożony…</translation>
    </message>
    <message>
        <source>New contest of the puzzle zone…</source>
        <translation>Nowa konkurencja strefy puzzli…</translation>
    </message>
    <message>
        <source>Import pairs or teams (CSV)…</source>
        <translation>Wczytaj pary lub drużyny (CSV)…</translation>
    </message>
    <message>
        <source>Check in a pair or team…</source>
        <translation>Potwierdź obecność pary lub drużyny…</translation>
    </message>
    <message>
        <source>Close the check-in</source>
        <translation>Zamknij sprawdzanie obecności</translation>
    </message>
    <message>
        <source>Seat at a table…</source>
        <translation>Przydziel stolik…</translation>
    </message>
    <message>
        <source>Record the finish of entry %1</source>
        <translation>Zapisz ukończenie uczestnika %1</translation>
    </message>
    <message>
        <source>People and their data (RODO)…</source>
        <translation>Osoby i ich dane (RODO)…</translation>
    </message>
    <message>
        <source>Table nodes…</source>
        <translation>Węzły…</translation>
    </message>
    <message>
        <source>Record the finish of the entry at that row (by table)</source>
        <translation>Zapisz ukończenie uczestnika z tego wiersza (wg stolików)</translation>
    </message>
    <message>
        <source>Audience screen: full screen on or off</source>
        <translation>Ekran widowni: pełny ekran lub okno</translation>
    </message>
    <message>
        <source>Audience screen: leave full screen</source>
        <translation>Ekran widowni: wyjście z pełnego ekranu</translation>
    </message>
    <message>
        <source>Audience screen: close it</source>
        <translation>Ekran widowni: zamknij</translation>
    </message>
    <message>
        <source>Chess groups</source>
        <translation>Grupy szachowe</translation>
    </message>
    <message>
        <source>Node %1: down — the table is shown as last known</source>
        <translation>Węzeł %1: rozłączony — stolik w ostatnim znanym stanie</translation>
    </message>
    <message>
        <source>Node %1: connected</source>
        <translation>Węzeł %1: połączony</translation>
    </message>
    <message>
        <source>select a table first (Ctrl+1 … Ctrl+9)</source>
        <translation>najpierw wybierz stolik (Ctrl+1 … Ctrl+9)</translation>
    </message>
    <message>
        <source>select a match in the bracket first</source>
        <translation>najpierw wybierz pojedynek w drabince</translation>
    </message>
    <message>
        <source>select a player in the list first</source>
        <translation>najpierw wybierz zawodnika z listy</translation>
    </message>
    <message>
        <source>no event is shown</source>
        <translation>nie pokazano żadnej imprezy</translation>
    </message>
    <message>
        <source>no bracket yet: the draw comes first</source>
        <translation>nie ma jeszcze drabinki: najpierw losowanie</translation>
    </message>
    <message>
        <source>no match may be put on a table now</source>
        <translation>żadnego pojedynku nie można teraz przydzielić do stolika</translation>
    </message>
    <message>
        <source>%1 is too long for one import (%2 bytes; at most %3).</source>
        <translation>%1 jest za długi na jeden import (%2 bajtów; najwyżej %3).</translation>
    </message>
    <message>
        <source>Pause the event&apos;s time</source>
        <translation>Wstrzymaj czas imprezy</translation>
    </message>
    <message>
        <source>End the event now</source>
        <translation>Zakończ imprezę teraz</translation>
    </message>
    <message>
        <source>no chess group in the daemon</source>
        <translation>demon nie ma żadnej grupy szachowej</translation>
    </message>
    <message>
        <source>no group may be paired now (each has a round open, or all its rounds played)</source>
        <translation>żadnej grupy nie można teraz kojarzyć (każda ma trwającą rundę albo rozegrała wszystkie)</translation>
    </message>
    <message>
        <source>Close round %1 of %2? These boards have no result and will be 0–0: %3</source>
        <translation>Zamknąć rundę %1 grupy %2? Te szachownice nie mają wyniku i dostaną 0–0: %3</translation>
    </message>
    <message>
        <source>Close round %1 of %2? Every board has its result.</source>
        <translation>Zamknąć rundę %1 grupy %2? Wszystkie szachownice mają wynik.</translation>
    </message>
    <message>
        <source>Close the round</source>
        <translation>Zamknij rundę</translation>
    </message>
    <message>
        <source>Not connected to a daemon.</source>
        <translation>Brak połączenia z demonem.</translation>
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
        <source>&amp;Event</source>
        <translation>&amp;Impreza</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Start</translation>
    </message>
    <message>
        <source>Pause the event</source>
        <translation>Wstrzymaj imprezę</translation>
    </message>
    <message>
        <source>Resume the event</source>
        <translation>Wznów imprezę</translation>
    </message>
    <message>
        <source>Adjust the event&apos;s time…</source>
        <translation>Korekta czasu imprezy…</translation>
    </message>
    <message>
        <source>End the event…</source>
        <translation>Zakończ imprezę…</translation>
    </message>
    <message>
        <source>Record a finish…</source>
        <translation>Zapisz ukończenie…</translation>
    </message>
    <message>
        <source>Take back a finish…</source>
        <translation>Cofnij ukończenie…</translation>
    </message>
    <message>
        <source>New Puzzle Duel session…</source>
        <translation>Nowa sesja Puzzlowego Pojedynku…</translation>
    </message>
    <message>
        <source>New timed event…</source>
        <translation>Nowa impreza na czas…</translation>
    </message>
    <message>
        <source>Show event</source>
        <translation>Pokaż imprezę</translation>
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
        <source>Timer and tables</source>
        <translation>Czas imprezy i stoliki</translation>
    </message>
    <message>
        <source>Signal: %1 — %2</source>
        <translation>Sygnał: %1 — %2</translation>
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
        <source>Resume</source>
        <translation>Wznów</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pauza</translation>
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
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Skróty klawiszowe</translation>
    </message>
</context>
<context>
    <name>StandingsTable</name>
    <message>
        <source>Place</source>
        <translation>Miejsce</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nazwisko i imię</translation>
    </message>
    <message>
        <source>School</source>
        <translation>Szkoła</translation>
    </message>
</context>
<context>
    <name>TablesWidget</name>
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
        <source>LAST KNOWN</source>
        <translation>OSTATNI ZNANY</translation>
    </message>
    <message>
        <source>FINISHED</source>
        <translation>UKOŃCZONE</translation>
    </message>
    <message>
        <source>IN PLAY</source>
        <translation>W GRZE</translation>
    </message>
    <message>
        <source>WAITING</source>
        <translation>CZEKA</translation>
    </message>
    <message>
        <source>DUEL OVER</source>
        <translation>ROZEGRANY</translation>
    </message>
    <message>
        <source>finished at %1</source>
        <translation>ukończone: %1</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>ukończone</translation>
    </message>
    <message>
        <source>the button records the finish</source>
        <translation>przycisk zapisze ukończenie</translation>
    </message>
    <message>
        <source>the event&apos;s time is over</source>
        <translation>czas imprezy minął</translation>
    </message>
    <message>
        <source>waiting for the start</source>
        <translation>czeka na start</translation>
    </message>
    <message>
        <source>nothing is played here</source>
        <translation>nic się tu nie toczy</translation>
    </message>
    <message>
        <source>node %1 down</source>
        <translation>węzeł %1 rozłączony</translation>
    </message>
    <message>
        <source>node %1</source>
        <translation>węzeł %1</translation>
    </message>
    <message>
        <source>device: %1</source>
        <translation>urządzenie: %1</translation>
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
        <source>flag</source>
        <translation>flaga</translation>
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
        <source>press</source>
        <extracomment>Journal entry kinds that are not referee actions (an action&apos;s entry is named by its action).</extracomment>
        <translation>naciśnięcie</translation>
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
        <source>table created</source>
        <translation>stolik utworzony</translation>
    </message>
    <message>
        <source>daemon started</source>
        <translation>demon uruchomiony</translation>
    </message>
    <message>
        <source>duel ended</source>
        <translation>koniec pojedynku</translation>
    </message>
    <message>
        <source>program loaded</source>
        <translation>program na stoliku</translation>
    </message>
    <message>
        <source>hall signal</source>
        <translation>sygnał na sali</translation>
    </message>
    <message>
        <source>event created</source>
        <translation>impreza utworzona</translation>
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
        <source>ignored: the duel is over</source>
        <translation>zignorowane: pojedynek zakończony</translation>
    </message>
    <message>
        <source>ignored: the toss winner does not start the clock</source>
        <translation>zignorowane: zegar uruchamia przegrany losowania</translation>
    </message>
    <message>
        <source>ignored: nothing is played here</source>
        <translation>zignorowane: nic się tu nie toczy</translation>
    </message>
    <message>
        <source>ignored: the event has not started</source>
        <translation>zignorowane: impreza się nie zaczęła</translation>
    </message>
    <message>
        <source>ignored: already finished</source>
        <translation>zignorowane: już ukończone</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>ukończone</translation>
    </message>
    <message>
        <source>repeat of a press already counted</source>
        <translation>powtórzenie naciśnięcia już policzonego</translation>
    </message>
    <message>
        <source>picture complete</source>
        <translation>obrazek ułożony</translation>
    </message>
    <message>
        <source>%1 tie-break %2</source>
        <extracomment>The words a hall signal is flashed with (written out, so the catalogue&apos;s checks find each code).</extracomment>
        <translation>%1 dogrywka %2</translation>
    </message>
</context>
<context>
    <name>Timeline</name>
    <message>
        <source>#</source>
        <extracomment>An event&apos;s timeline (a hall timer&apos;s): its instants count from its first entry, the start. Display names by player id, for the events that name a player (a toss, a decision).</extracomment>
        <translation>#</translation>
    </message>
    <message>
        <source>Since start</source>
        <translation>Od startu</translation>
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
        <source>player</source>
        <translation>zawodnik</translation>
    </message>
    <message>
        <source>table %1</source>
        <translation>stolik %1</translation>
    </message>
    <message>
        <source>seed %1</source>
        <translation>ziarno %1</translation>
    </message>
    <message>
        <source>clock&apos;s own time %1 ns</source>
        <translation>czas własny zegara %1 ns</translation>
    </message>
    <message>
        <source>by the table&apos;s button</source>
        <translation>przyciskiem na stoliku</translation>
    </message>
</context>
<context>
    <name>TimerAdjustDialog</name>
    <message>
        <source>Adjust the time — %1</source>
        <translation>Korekta czasu — %1</translation>
    </message>
    <message>
        <source>Give back (negative: take)</source>
        <translation>Oddaj (ujemne: odbierz)</translation>
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
    <name>UnfinishDialog</name>
    <message>
        <source>Take back a finish</source>
        <translation>Cofnij ukończenie</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>Zespół</translation>
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
    <name>VegaEntry</name>
    <message>
        <source>board no., Enter</source>
        <translation>nr szach., Enter</translation>
    </message>
    <message>
        <source>“%1” is not a board number</source>
        <translation>„%1” to nie numer szachownicy</translation>
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
<context>
    <name>ZoneEntryDialog</name>
    <message>
        <source>Bag 2 verified (split)</source>
        <translation>Woreczek 2 sprawdzony (międzyczas)</translation>
    </message>
    <message>
        <source>Pieces counted after the end</source>
        <translation>Elementy policzone po zakończeniu</translation>
    </message>
    <message>
        <source>Missing pieces</source>
        <translation>Brakujące elementy</translation>
    </message>
    <message>
        <source>Void (not classified)</source>
        <translation>Dyskwalifikacja (bez klasyfikacji)</translation>
    </message>
    <message>
        <source>A person leaves, another takes the seat</source>
        <translation>Ktoś wychodzi, ktoś inny siada na jego miejscu</translation>
    </message>
    <message>
        <source>A table&apos;s puzzle is done</source>
        <translation>Puzzle przy stoliku ułożone</translation>
    </message>
    <message>
        <source>why — required, it is journaled</source>
        <translation>dlaczego — wymagane, trafia do dziennika</translation>
    </message>
    <message>
        <source>no. %1 (table %2): %3</source>
        <translation>nr %1 (stolik %2): %3</translation>
    </message>
    <message>
        <source>Seat number</source>
        <translation>Numer miejsca</translation>
    </message>
    <message>
        <source>who takes the seat (empty: nobody yet)</source>
        <translation>kto siada (puste: na razie nikt)</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Imię</translation>
    </message>
    <message>
        <source>table %1</source>
        <translation>stolik %1</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>Stolik</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>Uczestnik</translation>
    </message>
    <message>
        <source>Picture %1 (groups of 3 or more)</source>
        <translation>Obrazek %1 (grupy po 3 i więcej)</translation>
    </message>
    <message>
        <source>Pieces (groups of 3 or more)</source>
        <translation>Elementy (grupy po 3 i więcej)</translation>
    </message>
    <message>
        <source>Missing</source>
        <translation>Braki</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Powód</translation>
    </message>
</context>
<context>
    <name>_BoardForm</name>
    <message>
        <source>Board</source>
        <extracomment>The results an appeal&apos;s decision may set (none: the decision changes no result).</extracomment>
        <translation>Szachownica</translation>
    </message>
    <message>
        <source>Player</source>
        <translation>Zawodnik</translation>
    </message>
    <message>
        <source>White: %1</source>
        <translation>Białe: %1</translation>
    </message>
    <message>
        <source>Black: %1</source>
        <translation>Czarne: %1</translation>
    </message>
</context>
</TS>

// Result entry at the tables. Every tap becomes an entry with its own id, kept in localStorage
// until the server has answered: with the Wi-Fi gone it waits, and is sent when it is back.
// The id travels to the daemon, which applies an id once: an entry sent twice counts once.
(function () {
  "use strict";
  var root = document.getElementById("entry");
  var T = root.dataset, csrf = T.csrf, KEY = "duelclock-entries";
  var box = document.getElementById("events"), status = document.getElementById("status");
  var problems = document.getElementById("problems");
  var state = { events: [] }, sending = false;

  function queue() { try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; } }
  function save(q) { localStorage.setItem(KEY, JSON.stringify(q)); }
  function newId() {
    var a = new Uint8Array(12); crypto.getRandomValues(a);
    return Array.prototype.map.call(a, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function add(entry) { entry.id = newId(); var q = queue(); q.push(entry); save(q); render(); flush(); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function showStatus() {
    var n = queue().length;
    status.textContent = n ? (navigator.onLine ? T.tPending : T.tOffline) + " (" + n + ")" : T.tSent;
    status.setAttribute("data-queued", String(n));
  }
  function problem(text, retry) {
    var li = el("li", { "class": "problem" }, text + " ");
    if (retry) { var b = el("button", {}, T.tReplace); b.onclick = function () { li.remove(); add(retry); }; li.appendChild(b); }
    problems.appendChild(li);
  }
  function pendingFor(ev, key, value) {
    return queue().some(function (e) { return e.event === ev && e[key] === value; });
  }
  function render() {
    box.textContent = "";
    state.events.forEach(function (ev) {
      var sec = el("section", { "data-event": ev.event });
      sec.appendChild(el("h2", {}, ev.title));
      (ev.boards || []).forEach(function (b) {
        var d = el("div", { "class": "board" + (pendingFor(ev.event, "board", b.board) ? " pending" : ""), "data-board": b.board });
        d.appendChild(el("div", {}, T.tBoard + " " + b.board + ": □ " + b.white + " – ■ " + b.black));
        ["1-0", "½-½", "0-1", "+-", "-+"].forEach(function (r) {  /* +- / -+: a forfeit, White's or Black's win */
          var btn = el("button", { "data-result": r, "class": b.result === r ? "on" : "" }, r);
          btn.disabled = !ev.open;
          btn.onclick = function () { add({ event: ev.event, kind: "chess-result", board: b.board, result: r }); };
          d.appendChild(btn);
        });
        if (b.result) d.appendChild(el("span", { "class": "by" }, " " + b.result + " · " + T.tBy + " " + b.by));
        sec.appendChild(d);
      });
      (ev.entries || []).forEach(function (z) {
        var d = el("div", { "class": "board" + (pendingFor(ev.event, "entry", z.entry) ? " pending" : ""), "data-entry": z.entry });
        d.appendChild(el("div", {}, z.name + (z.table ? " · " + z.table : "")));
        // every button says what it saves: the finish (the time now), the counted pieces, the missing ones
        var fin = el("button", { "class": z.finished ? "on" : "", "data-saves": "finish" }, z.finished ? T.tFinish + " ✓" : T.tFinishNow);
        fin.onclick = function () { add({ event: ev.event, kind: "entry-finish", entry: z.entry }); };
        d.appendChild(fin);
        [["pieces", "entry-count", T.tPieces, z.pieces, T.tSavePieces], ["missing", "entry-missing", T.tMissing, z.missing, T.tSaveMissing]].forEach(function (f) {
          var row = el("div", { "class": "field" });
          var label = el("label", {}, f[2] + " ");
          var input = el("input", { type: "number", min: "0", inputmode: "numeric", name: f[0], placeholder: f[2], value: f[3] == null ? "" : String(f[3]) });
          label.appendChild(input);
          var ok = el("button", { "data-saves": f[0] }, f[4]);
          ok.onclick = function () { if (input.value !== "") { var e = { event: ev.event, kind: f[1], entry: z.entry }; e[f[0]] = Number(input.value); add(e); } };
          row.appendChild(label); row.appendChild(ok); d.appendChild(row);
        });
        sec.appendChild(d);
      });
      box.appendChild(sec);
    });
    showStatus();
  }
  function load() {
    return fetch("/entry/api/state", { credentials: "same-origin", cache: "no-store" }).then(function (r) {
      if (r.status === 401) { status.textContent = T.tLogin; return; }
      return r.json().then(function (d) { state = d; render(); });
    }).catch(function () { showStatus(); });
  }
  function flush() {
    if (sending) return;
    var q = queue();
    if (!q.length) { showStatus(); return; }
    sending = true;
    var entry = q[0];
    fetch("/entry/api/submit", {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify(entry)
    }).then(function (r) {
      return r.json().then(function (d) {
        sending = false;
        if (r.status === 401 || r.status === 503 || r.status >= 500 && r.status !== 503) {
          status.textContent = d.message || T.tOffline; return;  // kept: sent again later
        }
        var rest = queue().filter(function (e) { return e.id !== entry.id; });
        save(rest);
        if (!d.ok) {
          var again = null;
          if (d.conflict) { again = JSON.parse(JSON.stringify(entry)); delete again.id; again.replace = true; }
          problem((d.conflict ? T.tConflict + " " : "") + (d.message || ""), again);
        }
        load().then(flush);
      });
    }).catch(function () { sending = false; showStatus(); });  // offline: kept in the queue
  }
  window.addEventListener("online", function () { flush(); load(); });
  window.addEventListener("offline", showStatus);
  setInterval(function () { flush(); }, 2000);
  setInterval(function () { if (!queue().length) load(); }, 5000);
  load().then(flush);
})();

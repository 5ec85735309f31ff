// The public pages' live part: one EventSource; "html" replaces the page's live part, "clocks"
// the running clocks; between messages, clocks and countdowns count on locally. Reconnects by itself.
(function () {
  "use strict";
  var url = document.body.getAttribute("data-stream");
  var live = document.getElementById("live");
  var offline = document.getElementById("offline");
  var clocks = {}, clocksAt = performance.now();
  var baseAt = performance.now();
  function fmt(ms) {
    if (ms < 0) ms = 0;
    var s = Math.ceil(ms / 1000), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), x = s % 60;
    var mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(x).padStart(2, "0");
  }
  function tick() {
    var now = performance.now();
    Object.keys(clocks).forEach(function (t) {
      var c = clocks[t];
      ["a", "b"].forEach(function (side) {
        var el = document.querySelector('[data-clock="' + t + side + '"]');
        if (!el) return;
        var left = c[side] - (c.run === side ? now - clocksAt : 0);
        el.textContent = fmt(left);
        el.classList.toggle("running", c.run === side);
      });
    });
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var ms = Number(el.getAttribute("data-countdown"));
      var dir = Number(el.getAttribute("data-dir") || -1);
      var running = el.getAttribute("data-running") === "true";
      el.textContent = fmt(running ? ms + dir * (now - baseAt) : ms);
    });
  }
  function find() {
    var box = document.getElementById("find");
    if (!box) return;
    var q = box.value.trim().toLowerCase();
    var found = document.getElementById("found"), boards = [], first = null;
    document.querySelectorAll("tr[data-names]").forEach(function (row) {
      var hit = q.length >= 2 && row.getAttribute("data-names").indexOf(q) >= 0;
      row.classList.toggle("here", hit);
      if (hit && !first) first = row;
      if (hit && row.getAttribute("data-board")) boards.push(row.cells[0].textContent);
    });
    if (found) {  /* every board the name is on (namesakes, or a short search: all of them) */
      found.hidden = !first;
      if (first) found.textContent = "→ " + (boards.length ? boards.join(", ") : first.cells[1].textContent);
    }
  }
  function wire() {
    var box = document.getElementById("find");
    if (box && !box.dataset.wired) { box.dataset.wired = "1"; box.addEventListener("input", find); }
    var data = document.getElementById("clocks");
    if (data) { try { clocks = JSON.parse(data.textContent); clocksAt = performance.now(); } catch (e) {} }
    baseAt = performance.now();
  }
  wire();
  if (!url || !window.EventSource) return;
  var source = new EventSource(url);
  source.addEventListener("html", function (e) {
    var box = document.getElementById("find"), q = box ? box.value : "", focused = box && document.activeElement === box;
    live.innerHTML = e.data;
    var again = document.getElementById("find");
    if (again) { again.value = q; if (focused) again.focus(); }
    wire(); find(); tick();
  });
  source.addEventListener("clocks", function (e) {
    try { var d = JSON.parse(e.data); clocks = d.tables; clocksAt = performance.now(); document.body.setAttribute("data-seq", d.seq); } catch (err) {}
    tick();
  });
  source.onopen = function () { if (offline) offline.hidden = true; };
  source.onerror = function () { if (offline) offline.hidden = false; };
  setInterval(tick, 250);
})();

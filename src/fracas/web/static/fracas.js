/* fracas console: follow the table as it changes, without polling.
 *
 * The server pushes the link's fresh panel over server-sent events (`.../events`) whenever
 * what this link sees changes (and its version when the stream opens: if that is not the
 * page's, the page fetches its panel).  The page patches itself in place: keyboard focus (and the caret), the window's and the log's scroll positions,
 * and anything half-typed are kept; a Decide form the user is filling in stays as it is
 * while the decision it belongs to is still the one to make.  New log lines are read out
 * through the `aria-live` region `#announce`; the result of this page's own action (its
 * new log lines, or the refusal) through `#result`.
 *
 * A player's page signals its turn: the title begins "Your turn", the banner `#your-turn`
 * is in the Decide section, and if the player switched it on (`#turn-alert`, a click: the
 * browser allows sound only after one), a short tone and a vibration.
 */
(function () {
  "use strict";
  // The GM's links: "Copy" puts the whole link on the clipboard where the browser allows
  // it (a secure page), else selects it for the usual copy keys; "QR code" shows the
  // link's code (an SVG drawn by the server: ``.../qr/<token>.svg``) under it, or hides it.
  document.addEventListener("click", function (event) {
    var target = event.target;
    var row = target.closest ? target.closest("#links li") : null;
    if (!row) { return; }
    var anchor = row.querySelector("a[href^='/e/']");
    if (target.matches("button.copy") && anchor) {
      var note = row.querySelector(".copied");
      if (!note) {
        note = document.createElement("span");
        note.className = "copied muted";
        note.setAttribute("aria-live", "polite");
        target.after(note);
      }
      var say = function (text) { note.textContent = text; };
      var range = document.createRange();
      range.selectNodeContents(anchor);
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(anchor.textContent.trim()).then(function () { say("copied"); },
          function () { say("selected: press Ctrl+C"); });
      } else {
        var done = false;
        try { done = document.execCommand("copy"); } catch (e) { done = false; }
        say(done ? "copied" : "selected: press Ctrl+C");
      }
    } else if (target.matches("button.qr") && anchor) {
      var shown = row.querySelector(".qr-holder");
      if (shown) { shown.remove(); return; }
      // ".../qr/<the link's token>.svg", with the page's choice of address (?at=N)
      var where = document.getElementById("links").getAttribute("data-qr").split("?");
      var image = document.createElement("img");
      image.className = "qr";
      image.alt = "QR code of the link " + anchor.textContent.trim();
      image.src = where[0] + anchor.getAttribute("href").split("/").pop() + ".svg" +
        (where[1] ? "?" + where[1] : "");
      var holder = document.createElement("div");
      holder.className = "qr-holder";
      holder.appendChild(image);
      row.appendChild(holder);
    }
  });
}());

(function () {
  "use strict";
  // The turn signal: title, banner (server-rendered), and the player's optional alert.
  var heading = document.querySelector("h1.title[data-title]");
  var plainTitle = heading ? heading.getAttribute("data-title") : document.title;
  var box = document.getElementById("turn-alert");
  var note = document.getElementById("turn-alert-note");
  var audio = null;
  var KEY = "fracas-turn-alert";
  var wasMine = !!document.getElementById("your-turn");

  function tone() {
    if (!audio) { return; }
    try {
      var osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
      osc.connect(gain);
      gain.connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + 0.35);
    } catch (e) { /* no sound here */ }
  }
  function wake() {
    // Only a user's gesture may start sound: made (or resumed) here.
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!audio && Ctx) { try { audio = new Ctx(); } catch (e) { audio = null; } }
    if (audio && audio.state === "suspended") { audio.resume(); }
  }
  function alertOn() { return !!(box && box.checked); }
  function signal() {
    document.body.setAttribute("data-alerts",
      String(Number(document.body.getAttribute("data-alerts") || "0") + 1));
    tone();
    if (navigator.vibrate) { try { navigator.vibrate([200, 100, 200]); } catch (e) { /* none */ } }
  }
  if (box) {
    try { box.checked = window.localStorage.getItem(KEY) === "on"; } catch (e) { /* private */ }
    box.addEventListener("change", function () {
      try { window.localStorage.setItem(KEY, box.checked ? "on" : "off"); } catch (e) { /* */ }
      if (box.checked) {
        wake();
        tone();
        if (note) { note.textContent = "on: you will hear a tone when your turn comes"; }
      } else if (note) { note.textContent = ""; }
    });
    // Switched on in an earlier visit: the first touch of the page lets the sound start.
    document.addEventListener("pointerdown", function () { if (alertOn()) { wake(); } },
                              { once: true });
  }
  function turn() {
    var mine = !!document.getElementById("your-turn");
    document.title = (mine ? "Your turn · " : "") + plainTitle;
    if (mine && !wasMine && alertOn()) { signal(); }
    wasMine = mine;
  }
  document.addEventListener("fracas:patched", turn);
  document.body.addEventListener("htmx:afterSettle", turn);
  turn();
}());

(function () {
  "use strict";
  var first = document.getElementById("live");
  if (!first || !window.EventSource || !window.fetch) { return; }
  var base = first.getAttribute("data-base");
  var busy = false, again = false;

  function live() { return document.getElementById("live"); }

  function lineIds(root) {
    var ids = {};
    root.querySelectorAll("#log li[id]").forEach(function (li) { ids[li.id] = true; });
    return ids;
  }

  function announce(oldIds, fresh) {
    var region = document.getElementById("announce");
    if (!region) { return; }
    var lines = [];
    fresh.querySelectorAll("#log li[id]").forEach(function (li) {
      if (!oldIds[li.id]) { lines.push(li.textContent.replace(/\s+/g, " ").trim()); }
    });
    if (!lines.length) { return; }
    lines.reverse();  // the log is newest first; read it in the order it happened
    region.textContent = lines.slice(-6).join(". ");
  }

  function patch(html) {
    var old = live();
    var holder = document.createElement("template");
    holder.innerHTML = html.trim();
    var fresh = holder.content.querySelector("#live");
    if (!old || !fresh) { return; }
    var revision = fresh.getAttribute("data-revision");
    // This page's own answer (with its message) may have landed meanwhile: nothing new.
    if (revision === old.getAttribute("data-revision")) { return; }
    var active = document.activeElement;
    var activeId = active && old.contains(active) ? active.id : "";
    var caret = null;
    if (activeId && typeof active.selectionStart === "number") {
      try { caret = [active.selectionStart, active.selectionEnd]; } catch (e) { caret = null; }
    }
    var scrollX = window.scrollX, scrollY = window.scrollY;
    var oldLog = old.querySelector("ol.log");
    var logTop = oldLog ? oldLog.scrollTop : 0;
    var oldIds = lineIds(old);

    // The Decide section: kept as it is while its decision is still the one to make.
    var oldDecide = old.querySelector("#decide");
    var newDecide = fresh.querySelector("#decide");
    var typed = old.querySelector("#typed");
    var typedText = typed ? typed.value : "";
    if (oldDecide && newDecide &&
        oldDecide.getAttribute("data-key") === newDecide.getAttribute("data-key")) {
      oldDecide.querySelectorAll("input[name=rev]").forEach(function (input) {
        input.value = revision;
      });
      newDecide.replaceWith(oldDecide);
    } else if (typedText) {
      var newTyped = fresh.querySelector("#typed");
      if (newTyped) { newTyped.value = typedText; }
    }
    // The GM's Adjust panel: kept as it is while it is open (an override being filled in:
    // its values are checked again when it is applied).
    var oldAdjust = old.querySelector("#adjust");
    var newAdjust = fresh.querySelector("#adjust");
    if (oldAdjust && newAdjust && (oldAdjust.open || oldAdjust.querySelector("#adjust-steps"))) {
      oldAdjust.querySelectorAll("input[name=rev]").forEach(function (input) {
        input.value = revision;
      });
      newAdjust.replaceWith(oldAdjust);
    }
    roster(newAdjust);
    announce(oldIds, fresh);
    old.replaceWith(fresh);
    if (window.htmx) { window.htmx.process(fresh); }
    document.dispatchEvent(new CustomEvent("fracas:patched"));

    var newLog = fresh.querySelector("ol.log");
    if (newLog) { newLog.scrollTop = logTop; }
    window.scrollTo(scrollX, scrollY);
    if (activeId) {
      var again = document.getElementById(activeId);
      if (again && again !== document.activeElement) {
        again.focus({ preventScroll: true });
        if (caret && typeof again.setSelectionRange === "function") {
          try { again.setSelectionRange(caret[0], caret[1]); } catch (e) { /* not a text box */ }
        }
      }
    }
  }

  // The GM's new-seat form lists the fight's combatants: when an override brought one in
  // or took one out (the Adjust panel's roster differs), it is fetched again.
  function roster(adjust) {
    var form = document.getElementById("new-seat");
    if (!form || !adjust || form.getAttribute("data-roster") === adjust.getAttribute("data-roster")) {
      return;
    }
    form.setAttribute("data-roster", adjust.getAttribute("data-roster"));
    fetch(base, { cache: "no-store", credentials: "same-origin" })
      .then(function (answer) { return answer.ok ? answer.text() : ""; })
      .then(function (html) {
        var holder = document.createElement("template");
        holder.innerHTML = html;
        var fresh = holder.content.querySelector("#new-seat");
        var now = document.getElementById("new-seat");
        if (fresh && now) { now.replaceWith(fresh); }
      })
      .catch(function () { /* a reload shows it */ });
  }

  // The answer to this page's own action (the fresh panel swapped in by htmx): its new log
  // lines, or its refusal, go to the `#result` region for screen readers.
  var before = null;
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    var current = live();
    before = target && current && target === current ? lineIds(current) : null;
  });
  document.body.addEventListener("htmx:afterSettle", function () {
    if (!before) { return; }
    var oldIds = before, current = live(), region = document.getElementById("result");
    before = null;
    if (!current || !region) { return; }
    roster(current.querySelector("#adjust"));
    var flash = current.querySelector("#flash");
    var lines = [];
    current.querySelectorAll("#log li[id]").forEach(function (li) {
      if (!oldIds[li.id]) { lines.push(li.textContent.replace(/\s+/g, " ").trim()); }
    });
    lines.reverse();
    var refused = flash && !flash.classList.contains("info");
    var text = refused || !lines.length ? (flash ? flash.textContent.trim() : "")
                                        : lines.slice(-8).join(". ");
    if (!text) { return; }
    // Emptied first, so the same words twice in a row are read out again.
    region.textContent = "";
    window.setTimeout(function () { region.textContent = text; }, 30);
  });

  // While this page's own form is on its way, its answer is what the page shows next;
  // a push arriving meanwhile is looked at once the answer has been swapped in.  A request
  // on its way is one whose element (still in the page) carries htmx's request class: a
  // count of start and end events would stay up for good when a request's element is
  // swapped out before it ends (its end event then never reaches the body).
  function own() { return document.querySelector("." + htmx.config.requestClass) !== null; }
  // What waits for this page's own request is looked at again when a request ends, and a
  // moment later in any case.
  function later(fn) { window.setTimeout(fn, 0); window.setTimeout(fn, 400); }
  function retry() { if (again && !busy) { again = false; refresh(); } }
  document.body.addEventListener("htmx:afterRequest", function () { later(retry); });

  // A fetch that failed (the network, or the server busy) is tried again, less and less
  // often, rather than left for the next push.
  var failures = 0;
  function refresh() {
    if (busy || own()) { again = true; later(retry); return; }
    var current = live();
    if (!current) { return; }
    busy = true;
    var url = base + "/panel?rev=" + encodeURIComponent(current.getAttribute("data-revision"));
    fetch(url, { headers: { "HX-Request": "true" }, cache: "no-store", credentials: "same-origin" })
      .then(function (answer) {
        if (answer.status === 200) { failures = 0; return answer.text(); }
        if (answer.status !== 204) { throw new Error("panel " + answer.status); }
        failures = 0;
        return "";
      })
      .then(function (html) { if (html) { patch(html); } })
      .catch(function () {
        failures += 1;
        window.setTimeout(refresh, Math.min(30000, 500 * Math.pow(2, failures - 1)));
      })
      .then(function () {
        busy = false;
        if (again) { again = false; refresh(); }
      });
  }

  // For tests and for anyone who wants to follow by hand: fetch and patch now.
  window.fracas = { refresh: refresh };
  var source = new EventSource(base + "/events");
  // A change: the fresh panel itself (patched in once this page's own form, if any, is back).
  var waiting = null;
  function flush() {
    if (waiting !== null && !own()) {
      var html = waiting;
      waiting = null;
      patch(html);
    }
  }
  function apply(html) {
    if (own()) { waiting = html; later(flush); return; }
    patch(html);
  }
  document.body.addEventListener("htmx:afterRequest", function () { later(flush); });
  source.addEventListener("panel", function (event) { apply(event.data); });
  // On (re)connecting: the version, to catch up with anything missed meanwhile.
  source.addEventListener("version", function (event) {
    var current = live();
    if (current && event.data !== current.getAttribute("data-revision")) { refresh(); }
  });
  window.addEventListener("pagehide", function () { source.close(); });
}());

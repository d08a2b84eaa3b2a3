/* fracas console: follow the table as it changes, without polling.
 *
 * The server pushes the link's fresh panel over server-sent events (`.../events`) whenever
 * what this link sees changes (and its version when the stream opens: if that is not the
 * page's, the page fetches its panel).  The page patches itself in place: keyboard focus (and the caret), the window's and the log's scroll positions,
 * and anything half-typed are kept; a Decide form the user is filling in stays as it is
 * while the decision it belongs to is still the one to make.  New log lines are read out
 * through the `aria-live` region `#announce`.
 */
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
    announce(oldIds, fresh);
    old.replaceWith(fresh);
    if (window.htmx) { window.htmx.process(fresh); }

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

  // While this page's own form is on its way, its answer is what the page shows next;
  // a push arriving meanwhile is looked at once the answer has been swapped in.
  var own = 0;
  document.body.addEventListener("htmx:beforeRequest", function () { own += 1; });
  document.body.addEventListener("htmx:afterRequest", function () {
    own = Math.max(0, own - 1);
    if (!own && again) { again = false; window.setTimeout(refresh, 0); }
  });

  function refresh() {
    if (busy || own) { again = true; return; }
    var current = live();
    if (!current) { return; }
    busy = true;
    var url = base + "/panel?rev=" + encodeURIComponent(current.getAttribute("data-revision"));
    fetch(url, { headers: { "HX-Request": "true" }, cache: "no-store", credentials: "same-origin" })
      .then(function (answer) { return answer.status === 200 ? answer.text() : ""; })
      .then(function (html) { if (html) { patch(html); } })
      .catch(function () { /* the next push tries again */ })
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
  function apply(html) {
    if (own) { waiting = html; return; }
    patch(html);
  }
  document.body.addEventListener("htmx:afterRequest", function () {
    if (!own && waiting !== null) {
      var html = waiting;
      waiting = null;
      window.setTimeout(function () { patch(html); }, 0);
    }
  });
  source.addEventListener("panel", function (event) { apply(event.data); });
  // On (re)connecting: the version, to catch up with anything missed meanwhile.
  source.addEventListener("version", function (event) {
    var current = live();
    if (current && event.data !== current.getAttribute("data-revision")) { refresh(); }
  });
  window.addEventListener("pagehide", function () { source.close(); });
}());

// The console's only script (served from /console/assets, allowed by the CSP's script-src 'self'): live call
// statuses over Server-Sent Events, and seeking the recording from the transcript. The pages work without it.
"use strict";
(function () {
  function liveStatuses() {
    var rows = document.querySelectorAll("[data-call-id]");
    if ((rows.length === 0 && !document.querySelector("[data-newest]")) || !window.EventSource) return;
    var ids = [];
    rows.forEach(function (row) { ids.push(row.getAttribute("data-call-id")); });
    var single = document.querySelector('[data-live="call"]');
    var list = document.querySelector("[data-newest]");
    var newest = list ? "&newest=" + encodeURIComponent(list.getAttribute("data-newest")) : "";
    var source = new EventSource("/console/calls/events?ids=" + encodeURIComponent(ids.join(",")) + newest);
    source.addEventListener("new", function () {
      var note = document.getElementById("new-calls");
      if (note) note.hidden = false;
    });
    source.addEventListener("status", function (event) {
      var d = JSON.parse(event.data);
      document.querySelectorAll('[data-call-id="' + d.id + '"]').forEach(function (row) {
        var was = row.getAttribute("data-status");
        var badge = row.querySelector(".live-status .badge");
        if (badge) {
          badge.textContent = d.status_label;
          badge.className = "badge s-" + d.status;
          badge.setAttribute("data-status", d.status);
        }
        var outcome = row.querySelector(".live-outcome");
        if (outcome) outcome.textContent = d.outcome_label;
        row.setAttribute("data-status", d.status);
        // A call's own page reloads when its call ends: the transcript and the recording are there then.
        if (single && row === single && d.terminal && was && was !== d.status) window.location.reload();
      });
    });
    source.addEventListener("ended", function () { source.close(); });
    window.addEventListener("pagehide", function () { source.close(); });
  }

  // A copy button copies its field (the connector's address); the field stays selectable without a script.
  function copyButtons() {
    document.querySelectorAll("button[data-copy]").forEach(function (button) {
      button.addEventListener("click", function () {
        var field = document.getElementById(button.getAttribute("data-copy"));
        if (!field) return;
        field.select();
        var done = function () { button.textContent = button.getAttribute("data-copied"); };
        if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, function () {});
        else if (document.execCommand && document.execCommand("copy")) done();
      });
    });
  }

  function seekButtons() {
    var player = document.getElementById("player");
    if (!player) return;
    document.querySelectorAll("[data-seek]").forEach(function (button) {
      button.addEventListener("click", function () {
        player.currentTime = Number(button.getAttribute("data-seek"));
        player.play();
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    liveStatuses();
    seekButtons();
    copyButtons();
  });
})();

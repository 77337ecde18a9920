// The live panel of a running experiment's page (jvmlab serve): polls the progress document every 2 s and
// shows the trials and the running trial's metric in place. Text goes in through textContent only. When
// the experiment has ended, the page loads once more: the full report of every trial.
(function () {
  "use strict";
  var box = document.getElementById("live");
  if (!box) {
    return;
  }
  var url = box.getAttribute("data-progress");
  var status = box.querySelector(".live-status");
  var metric = box.querySelector(".live-metric");
  var line = box.querySelector("svg.live-spark polyline");
  var rows = box.querySelector("table.live-trials tbody");
  window.jvmlabLiveUpdates = 0;

  function cell(tr, text, cls) {
    var td = document.createElement("td");
    td.textContent = text === null || text === undefined ? "" : String(text);
    if (cls) {
      td.className = cls;
    }
    tr.appendChild(td);
  }

  function figure(v) {
    return typeof v === "number" ? (Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3)) : "";
  }

  function show(p) {
    status.textContent = p.summary;
    var trs = [];
    p.trials.forEach(function (t) {
      if (t.state === "pending") {
        return;
      }
      var tr = document.createElement("tr");
      tr.setAttribute("data-state", t.state);
      cell(tr, t.position, "num");
      cell(tr, t.key);
      cell(tr, t.state, "state-" + t.state);
      cell(tr, t.elapsed_s === null ? "" : t.elapsed_s.toFixed(1), "num");
      cell(tr, figure(t.metric), "num");
      trs.push(tr);
    });
    rows.replaceChildren.apply(rows, trs);
    var live = p.live.length ? p.live[0] : null;
    var values = live ? live.values : [];
    if (live && values.length) {
      metric.textContent = live.trial + ": " + live.metric + " " + figure(values[values.length - 1]) +
        (live.unit ? " " + live.unit : "") + " (" + values.length + " readings)";
      var low = Math.min.apply(null, values), high = Math.max.apply(null, values), span = high - low || 1;
      line.setAttribute("points", values.map(function (v, i) {
        return (300 * i / Math.max(values.length - 1, 1)).toFixed(1) + "," + (38 - 36 * (v - low) / span).toFixed(1);
      }).join(" "));
    } else {
      metric.textContent = live ? live.trial + ": no reading of " + live.metric + " yet" : "";
      line.setAttribute("points", "");
    }
    window.jvmlabLiveUpdates += 1;
  }

  function poll() {
    fetch(url, {credentials: "same-origin", cache: "no-store"})
      .then(function (r) {
        if (!r.ok) {
          throw new Error("HTTP " + r.status);
        }
        return r.json();
      })
      .then(function (p) {
        show(p);
        if (p.status === "running") {
          window.setTimeout(poll, 2000);
        } else {
          status.textContent = p.summary + " · the experiment has ended: loading its full report";
          window.location.reload();
        }
      })
      .catch(function (e) {
        status.textContent = "Live updates paused (" + e.message + "); trying again";
        window.setTimeout(poll, 5000);
      });
  }

  poll();
})();

// The live panel of a running experiment's page (jvmlab serve): polls the progress document every 2 s and
// shows the trials and the running trial's metric in place; for a tuning study, its charts too (objective
// over the candidates, Pareto front, importance), drawn again by plotly as candidates finish. Text goes in
// through textContent only. When the experiment has ended, the page loads once more: the full report.
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
  var tuning = box.querySelector(".live-tuning");
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

  function chartDiv(id, title) {
    var div = document.getElementById("live-" + id);
    if (!div) {
      var h = document.createElement("h3");
      h.textContent = title;
      div = document.createElement("div");
      div.id = "live-" + id;
      div.className = "chart";
      tuning.querySelector(".live-charts").append(h, div);
    }
    div.previousElementSibling.textContent = title;
    return div;
  }

  function showTuning(t) {
    if (!tuning || !t || typeof Plotly === "undefined") {
      return;
    }
    tuning.querySelector(".live-tuning-status").textContent = t.summary;
    t.charts.forEach(function (c) {
      Plotly.react(chartDiv(c.id, c.title), c.figure.data, c.figure.layout, {responsive: true, displaylogo: false});
    });
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
    showTuning(p.tuning);
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

/* jvmlab flame graphs: draws each figure.flame-box of the page on its <canvas> from its JSON island, a tree
   prepared by python/jvmlab/report/html/flamegraph.py (frames interned; nodes depth-first, each with its
   frame, depth and total). Click a frame to zoom (it fills the width), click the root or Reset to go back;
   search by regex (or plain text when the regex is invalid); hover for the frame, its weight and shares.
   Vanilla JS: no library, no network. Frame names are only ever set as text, never as markup. */
(function () {
  "use strict";
  var ROW = 16; // px per frame row
  var MIN_PX = 0.5; // narrower frames (and their children) are not drawn until zoomed
  var LABEL_PX = 24; // frames at least this wide get a label
  var FONT = "12px system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";
  var MATCH = "rgb(238,0,238)";
  var NEUTRAL = 232; // diff: grey of an unchanged frame
  // Base colour and random spread of r, g, b per kind (after async-profiler's palette).
  var PALETTE = {
    root: [0xc8c8c8, 0, 0, 0], java: [0x50e150, 30, 30, 30], inlined: [0x50cccc, 30, 30, 30],
    interpreted: [0xb2e1b2, 20, 20, 20], c1: [0xcce880, 20, 20, 20], native: [0xe1c83c, 30, 30, 10],
    kernel: [0xe15a5a, 30, 40, 40], other: [0xbbbbbb, 0, 0, 0]
  };
  var LABELS = {
    root: "all samples", java: "Java (JIT)", inlined: "Java (inlined)", interpreted: "Java (interpreted)",
    c1: "Java (C1)", native: "native", kernel: "kernel", other: "narrow frames folded together"
  };
  var LEGEND = ["java", "inlined", "interpreted", "c1", "native", "kernel"];

  function hash(text) { // FNV-1a, as a number in [0, 1)
    var h = 2166136261;
    for (var i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 16777619);
    }
    return (h >>> 0) / 4294967296;
  }

  function kindColour(kind, spread) {
    var p = PALETTE[kind] || PALETTE.other;
    var r = Math.min(255, (p[0] >> 16) + Math.round(spread * p[1]));
    var g = Math.min(255, ((p[0] >> 8) & 255) + Math.round(spread * p[2]));
    var b = Math.min(255, (p[0] & 255) + Math.round(spread * p[3]));
    return "rgb(" + r + "," + g + "," + b + ")";
  }

  function number(n) { return Math.round(n).toLocaleString("en-US"); }
  function percent(share) { return (100 * share).toFixed(2) + " %"; }
  function points(delta) { return (delta >= 0 ? "+" : "\u2212") + Math.abs(100 * delta).toFixed(2) + " pp"; }

  // Parents, subtree ends, x offsets (in weight units) and self weights: one pass over the depths.
  function prepare(data) {
    var n = data.total.length, depth = data.depth, total = data.total;
    var parent = new Int32Array(n), end = new Int32Array(n), x = new Float64Array(n);
    var cursor = new Float64Array(n), self = new Float64Array(n), lastAt = [], open = [], maxDepth = 0;
    for (var i = 0; i < n; i++) {
      var d = depth[i];
      while (open.length && depth[open[open.length - 1]] >= d) end[open.pop()] = i;
      open.push(i);
      lastAt[d] = i;
      self[i] = total[i];
      parent[i] = d > 0 ? lastAt[d - 1] : -1;
      if (d > 0) {
        x[i] = cursor[parent[i]];
        cursor[parent[i]] += total[i];
        self[parent[i]] -= total[i];
      }
      cursor[i] = x[i];
      if (d > maxDepth) maxDepth = d;
    }
    while (open.length) end[open.pop()] = n;
    return {
      n: n, frames: data.frames, frameKind: data.frameKinds, kindNames: data.kinds, frame: data.frame,
      depth: depth, total: total, parent: parent, end: end, x: x, self: self, maxDepth: maxDepth,
      base: data.base || null, baseTotal: data.baseTotal || 0
    };
  }

  function kindOf(t, i) { return t.kindNames[t.frameKind[t.frame[i]]]; }

  function delta(t, i) { // diff: share in new less share in base
    var now = t.total[0] ? t.total[i] / t.total[0] : 0;
    return now - (t.baseTotal ? t.base[i] / t.baseTotal : 0);
  }

  function maxDelta(t) {
    var m = 0;
    for (var i = 1; i < t.n; i++) m = Math.max(m, Math.abs(delta(t, i)));
    return m || 1;
  }

  function diffColour(g, i) {
    var d = delta(g.tree, i);
    if (Math.abs(d) < 1e-12) return "rgb(" + NEUTRAL + "," + NEUTRAL + "," + NEUTRAL + ")";
    var s = Math.sqrt(Math.min(1, Math.abs(d) / g.maxDelta)); // sqrt: small changes still show
    var strong = Math.round(NEUTRAL + (255 - NEUTRAL) * s), weak = Math.round(NEUTRAL - 182 * s);
    return d > 0 ? "rgb(" + strong + "," + weak + "," + weak + ")" : "rgb(" + weak + "," + weak + "," + strong + ")";
  }

  function colourOf(g, i) {
    var t = g.tree;
    if (g.matches && g.matches[t.frame[i]]) return MATCH;
    return g.diff ? diffColour(g, i) : g.frameColours[t.frame[i]];
  }

  function fill(g, colour) {
    if (colour !== g.fill) {
      g.ctx.fillStyle = colour;
      g.fill = colour;
    }
  }

  function label(g, name, left, y, w) {
    var room = w - 6, chars = Math.floor(room / g.charWidth);
    if (chars < 3) return;
    var text = name.length <= chars ? name : name.slice(0, chars - 2) + "..";
    fill(g, "#000");
    g.ctx.fillText(text, left + 3, y + ROW / 2, room); // maxWidth: never over the next frame
  }

  function frame(g, i, left, w) {
    var t = g.tree, y = (t.maxDepth - t.depth[i]) * ROW; // the root at the bottom
    fill(g, colourOf(g, i));
    g.ctx.fillRect(left, y, w > 2 ? w - 1 : w, ROW - 1);
    g.hits.push(i, left, w);
    if (w >= LABEL_PX) label(g, t.frames[t.frame[i]], left, y, w);
  }

  function resize(g) {
    var dpr = window.devicePixelRatio || 1, width = g.wrap.clientWidth, height = (g.tree.maxDepth + 1) * ROW;
    if (g.canvas.width !== Math.round(width * dpr) || g.canvas.height !== Math.round(height * dpr)) {
      g.canvas.width = Math.round(width * dpr);
      g.canvas.height = Math.round(height * dpr);
      g.canvas.style.height = height + "px";
    }
    g.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    return width;
  }

  // The zoomed frame fills the width; its ancestors are drawn faded across it; the rest of the tree is not.
  function draw(g) {
    var t = g.tree, ctx = g.ctx, width = resize(g), z = g.zoom;
    ctx.clearRect(0, 0, width, (t.maxDepth + 1) * ROW);
    ctx.font = FONT;
    ctx.textBaseline = "middle";
    g.fill = null;
    g.hits = [];
    if (!t.total[0]) {
      fill(g, "#59636e");
      ctx.fillText("no samples", 4, ROW / 2);
      return;
    }
    ctx.globalAlpha = 0.6;
    for (var p = t.parent[z]; p >= 0; p = t.parent[p]) frame(g, p, 0, width);
    ctx.globalAlpha = 1;
    var scale = width / t.total[z], x0 = t.x[z], stop = t.end[z];
    for (var i = z; i < stop;) {
      var w = t.total[i] * scale;
      if (w < MIN_PX) {
        i = t.end[i];
        continue;
      }
      frame(g, i, (t.x[i] - x0) * scale, w);
      i++;
    }
    g.box.setAttribute("data-drawn", String(g.hits.length / 3));
  }

  function nodeAt(g, ev) {
    var r = g.canvas.getBoundingClientRect(), px = ev.clientX - r.left;
    var depth = g.tree.maxDepth - Math.floor((ev.clientY - r.top) / ROW), h = g.hits;
    for (var k = 0; k < h.length; k += 3) {
      if (g.tree.depth[h[k]] === depth && px >= h[k + 1] && px < h[k + 1] + h[k + 2]) return h[k];
    }
    return -1;
  }

  function line(tip, text) {
    var div = document.createElement("div");
    div.textContent = text;
    tip.appendChild(div);
  }

  function tipLines(g, i) {
    var t = g.tree, all = t.total[0], z = g.zoom, unit = " " + g.unit;
    var lines = [
      LABELS[kindOf(t, i)] || kindOf(t, i),
      number(t.total[i]) + unit + ", " + percent(t.total[i] / all) + " of all",
      "self " + number(t.self[i]) + unit + ", " + percent(t.self[i] / all)
    ];
    if (z !== 0 && i >= z && i < t.end[z]) lines.push(percent(t.total[i] / t.total[z]) + " of the zoomed frame");
    if (g.diff) {
      var base = t.baseTotal ? t.base[i] / t.baseTotal : 0;
      lines.push("base " + percent(base) + " \u2192 new " + percent(t.total[i] / all) + " (" + points(delta(t, i)) + ")");
      lines.push("base: " + number(t.base[i]) + " of " + number(t.baseTotal) + unit);
    }
    return lines;
  }

  function showTip(g, i, ev) {
    var tip = g.tip, name = document.createElement("b"), r = g.wrap.getBoundingClientRect();
    tip.textContent = "";
    name.textContent = g.tree.frames[g.tree.frame[i]];
    tip.appendChild(name);
    tipLines(g, i).forEach(function (text) { line(tip, text); });
    tip.hidden = false;
    var left = ev.clientX - r.left + 14, top = ev.clientY - r.top + 14;
    if (left + tip.offsetWidth > r.width) left = Math.max(0, ev.clientX - r.left - tip.offsetWidth - 14);
    tip.style.left = left + "px";
    tip.style.top = top + "px";
  }

  function zoom(g, i) {
    g.zoom = i;
    g.reset.disabled = i === 0;
    g.box.setAttribute("data-zoom", String(i));
    draw(g);
  }

  function matcher(query) {
    try {
      var re = new RegExp(query);
      return function (name) { return re.test(name); };
    } catch (e) {
      return function (name) { return name.indexOf(query) >= 0; };
    }
  }

  // Matched share: the total of matched frames, a match inside another match counted once (in the outer).
  function search(g, query) {
    var t = g.tree;
    g.matches = null;
    g.match.textContent = "";
    g.box.removeAttribute("data-matched");
    if (query) {
      var test = matcher(query), m = new Uint8Array(t.frames.length), matched = 0, covered = 0;
      for (var f = 0; f < t.frames.length; f++) {
        var kind = t.kindNames[t.frameKind[f]];
        m[f] = kind !== "root" && kind !== "other" && test(t.frames[f]) ? 1 : 0;
      }
      for (var i = 0; i < t.n; i++) {
        if (m[t.frame[i]] && i >= covered) {
          matched += t.total[i];
          covered = t.end[i];
        }
      }
      var share = t.total[0] ? matched / t.total[0] : 0;
      g.matches = m;
      g.match.textContent = "matched: " + percent(share) + " (" + number(matched) + " " + g.unit + ")";
      g.box.setAttribute("data-matched", String(share));
    }
    draw(g);
  }

  function swatch(parent, background, className) {
    var i = document.createElement("i");
    i.style.background = background;
    if (className) i.className = className;
    parent.appendChild(i);
  }

  function legend(g) {
    var el = g.box.querySelector(".flame-legend");
    if (g.diff) {
      var blue = "rgb(50,50,255)", grey = "rgb(" + NEUTRAL + "," + NEUTRAL + "," + NEUTRAL + ")";
      el.appendChild(document.createTextNode("share of the total: less"));
      swatch(el, "linear-gradient(to right, " + blue + ", " + grey + ", rgb(255,50,50))", "flame-scale");
      el.appendChild(document.createTextNode("more (full colour: " + points(g.maxDelta).slice(1) + ")"));
      return;
    }
    LEGEND.forEach(function (kind) {
      swatch(el, kindColour(kind, 0.5));
      el.appendChild(document.createTextNode(LABELS[kind]));
    });
  }

  function listen(g) {
    g.canvas.addEventListener("click", function (ev) {
      var i = nodeAt(g, ev);
      if (i >= 0 && i !== g.zoom) zoom(g, i);
    });
    g.canvas.addEventListener("mousemove", function (ev) {
      var i = nodeAt(g, ev);
      if (i >= 0) showTip(g, i, ev);
      else g.tip.hidden = true;
    });
    g.canvas.addEventListener("mouseleave", function () { g.tip.hidden = true; });
    g.reset.addEventListener("click", function () { zoom(g, 0); });
    g.box.querySelector(".flame-search").addEventListener("input", function (ev) { search(g, ev.target.value); });
  }

  function setup(box) {
    var data = JSON.parse(document.getElementById(box.getAttribute("data-flame")).textContent);
    var tree = prepare(data), canvas = box.querySelector("canvas.flame");
    var g = {
      box: box, tree: tree, canvas: canvas, ctx: canvas.getContext("2d"), wrap: box.querySelector(".flame-wrap"),
      tip: box.querySelector(".flame-tip"), match: box.querySelector(".flame-match"),
      reset: box.querySelector(".flame-reset"), unit: box.getAttribute("data-unit"),
      diff: box.getAttribute("data-diff") === "true", zoom: 0, matches: null, hits: [], fill: null
    };
    g.frameColours = tree.frames.map(function (name, f) {
      return kindColour(tree.kindNames[tree.frameKind[f]], hash(name));
    });
    g.maxDelta = g.diff ? maxDelta(tree) : 1;
    g.ctx.font = FONT;
    g.charWidth = g.ctx.measureText("java/util/concurrent/ThreadPoolExecutor.runWorker").width / 49;
    box.setAttribute("data-zoom", "0");
    legend(g);
    listen(g);
    draw(g);
    return g;
  }

  function setupAll() {
    var started = performance.now(), graphs = [];
    document.querySelectorAll("figure.flame-box[data-flame]").forEach(function (box) {
      try {
        graphs.push(setup(box));
      } catch (e) {
        box.querySelector(".flame-wrap").textContent = "This flame graph could not be drawn: " + e;
        console.error("jvmlab flame graph " + box.id + ": " + e);
      }
    });
    var pending = false;
    window.addEventListener("resize", function () {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () {
        pending = false;
        graphs.forEach(draw);
      });
    });
    window.__flamegraphDrawMs = performance.now() - started; // parse, prepare and first draw of them all
    window.__flamegraphDoneAt = performance.now(); // since the navigation started
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setupAll);
  } else {
    setupAll();
  }
})();

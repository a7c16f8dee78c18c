/* The page versions of the explorers of clfbook.widgets (see clfbook/widgets/page.py).
 *
 * Each <div class="clf-page-explorer"> holds a JSON spec written by the library at build
 * time; this file builds labelled controls, an aria-live readout and SVG figures from it.
 * Formulas come from clfmetrics.js (a port checked against the library in Chromium);
 * sweeps and simulations come precomputed in the spec. No network, no framework.
 * Convention: m[i][j] = predicted i, true j.
 */
(function () {
  "use strict";
  const CM = () => window.clfmetrics;
  // Okabe-Ito; its black is the text colour, so that it stays visible in dark mode.
  const COLORS = ["#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7", "currentColor"];
  const SVGNS = "http://www.w3.org/2000/svg";
  const MAX_COUNT = 1e7;

  // --- formatting, as clfbook.widgets._base.fmt: 4 decimals, half to even on exact ties,
  // never a negative zero (-1e-17 from one summation order is 0.0000, as +1e-17 from another) ---
  function fmt(x) {
    if (x === null || x === undefined) return "n/a";
    if (Number.isNaN(x)) return "nan";
    // An exact tie at the 4th decimal is an odd multiple of 1/32 (5^4 must cancel); toFixed
    // rounds it up, Python to even. a * 32 is exact (a power of two).
    const a = Math.abs(x), t = a * 32;
    let s = x.toFixed(4);
    if (Number.isInteger(t) && t % 2 === 1) {
      let n = Math.floor(a * 1e4);
      if (n % 2 === 1) n += 1;
      s = (x < 0 ? "-" : "") + (n / 1e4).toFixed(4);
    }
    return /^-0\.0*$/.test(s) ? s.slice(1) : s;
  }

  // Python's f"{x:.4g}" for the scaled matrices.
  // x with an exact tie at its p-th significant digit moved to the even neighbour's side
  // (toPrecision rounds ties away from zero; Python's format rounds them to even).
  function tieToEven(x, p) {
    const [mant, exp] = Math.abs(x).toExponential(p + 24).split("e");
    const digits = mant.replace(".", "");
    if (digits[p] !== "5" || !/^0*$/.test(digits.slice(p + 1))) return x;
    if (Number(digits[p - 1]) % 2 === 1) return x;  // rounding up lands on even
    const kept = `${digits[0]}.${digits.slice(1, p)}e${exp}`;
    return (x < 0 ? -1 : 1) * Number(kept);
  }

  function fmtG(x, p = 4) {
    if (x === 0) return "0";
    x = tieToEven(x, p);
    const e = Math.floor(Math.log10(Math.abs(x)));
    const strip = (s) => (s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s);
    if (e < -4 || e >= p) {
      const [mant, exp] = x.toExponential(p - 1).split("e");
      const n = Number(exp);
      return `${strip(mant)}e${n < 0 ? "-" : "+"}${String(Math.abs(n)).padStart(2, "0")}`;
    }
    return strip(x.toPrecision(p));
  }

  // --- DOM helpers -----------------------------------------------------------------------
  function el(tag, attrs = {}, children = []) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const c of [].concat(children)) if (c) node.append(c);
    return node;
  }

  let uid = 0;
  function labelled(label, input) {
    input.id = input.id || `clf-input-${++uid}`;
    return el("span", { class: "clf-control" }, [el("label", { for: input.id, text: label }), input]);
  }

  function numberInput(label, value, min, max, onValue, status) {
    const input = el("input", { type: "number", min, max, step: 1, value, inputmode: "numeric" });
    input.addEventListener("input", () => {
      const v = Number(input.value);
      if (input.value === "" || !Number.isInteger(v) || v < min || v > max) {
        status(`${label} must be a whole number from ${min} to ${max}.`);
        return;
      }
      status("");
      onValue(v);
    });
    return { input, node: labelled(label, input) };
  }

  function slider(label, max, value, onIndex, text) {
    const input = el("input", { type: "range", min: 0, max, step: 1, value });
    const out = el("output", { for: "", class: "clf-slider-value" });
    const show = () => {
      out.textContent = text(Number(input.value));
      input.setAttribute("aria-valuetext", out.textContent);
    };
    input.addEventListener("input", () => {
      show();
      onIndex(Number(input.value));
    });
    show();
    const node = labelled(label, input);
    node.append(out);
    return { input, node, set: (i) => ((input.value = i), show()) };
  }

  // A table; a cell is text, or {text, key, bold} (key: data-key for the tests and state).
  // A readout table longer than FOLD_OVER rows shows its first FOLD_AFTER and folds the
  // rest behind a button (the explorer stays about one screen tall beside its figures).
  const FOLD_OVER = 12, FOLD_AFTER = 4;
  function table(header, rows, caption) {
    const t = el("table", { class: "clf-table" });
    if (caption) t.append(el("caption", { text: caption }));
    t.append(el("thead", {}, [el("tr", {}, header.map((h) => el("th", { scope: "col", text: h })))]));
    const row = (cells) => el("tr", {}, cells.map((c, k) => {
      const cell = typeof c === "object" && c !== null ? c : { text: String(c) };
      const attrs = { text: cell.text };
      if (cell.key) attrs["data-key"] = cell.key;
      if (cell.bold) attrs.class = "clf-match";
      return el(k === 0 ? "th" : "td", k === 0 ? { ...attrs, scope: "row" } : attrs);
    }));
    const fold = rows.length > FOLD_OVER;
    t.append(el("tbody", {}, (fold ? rows.slice(0, FOLD_AFTER) : rows).map(row)));
    if (!fold) return t;
    const rest = el("tbody", { class: "clf-rest" }, rows.slice(FOLD_AFTER).map(row));
    rest.hidden = true;
    t.append(rest);
    const more = `${rows.length - FOLD_AFTER} more ${header[0] === "metric" ? "metrics" : "rows"}`;
    const button = el("button", { type: "button", class: "clf-more", "aria-expanded": "false",
                                  "data-fold": header.join("|"), text: `Show ${more}` });
    button.addEventListener("click", () => {
      const open = button.getAttribute("aria-expanded") !== "true";
      button.setAttribute("aria-expanded", String(open));
      button.textContent = open ? `Hide the ${more}` : `Show ${more}`;
      rest.hidden = !open;
    });
    return el("div", { class: "clf-folded" }, [t, button]);
  }

  const mark = (flag) => ({ text: flag ? "✓ yes" : "✗ no" });

  // Round tick values inside [lo, hi]: steps of 1, 2 or 5 times a power of ten, about `n`.
  function niceTicks(lo, hi, n = 5) {
    if (!(hi > lo)) return [lo];
    const raw = (hi - lo) / n, mag = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map((f) => f * mag).find((v) => v >= raw);
    const out = [];
    for (let t = Math.ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9; t += step) {
      out.push(Number(t.toPrecision(12)));
    }
    return out;
  }

  // Colours that follow the theme: axes, text and marker outlines are currentColor (the
  // page's text colour, light or dark); the CSS sets it from the book's data-theme.
  const INK = "currentColor";

  // --- SVG chart: lines, bars, bands, markers, error crosses, reference lines --------------
  function chart(o) {
    const W = o.width || 330, H = o.height || 210, L = o.left || 40, R = 10, T = 22, B = 34;
    const [x0, x1] = o.xlim, [y0, y1] = o.ylim;
    const X = (x) => L + ((x - x0) / (x1 - x0 || 1)) * (W - L - R);
    const Y = (y) => H - B - ((y - y0) / (y1 - y0 || 1)) * (H - T - B);
    const svg = document.createElementNS(SVGNS, "svg");
    const add = (tag, attrs, text) => {
      const n = document.createElementNS(SVGNS, tag);
      for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
      if (text !== undefined) n.textContent = text;
      svg.append(n);
      return n;
    };
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("width", W);
    svg.setAttribute("height", H);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", o.label);
    svg.setAttribute("class", "clf-chart");
    add("text", { x: W / 2, y: 14, "text-anchor": "middle", class: "clf-title" }, o.title);
    add("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, stroke: INK });
    add("line", { x1: L, y1: T, x2: L, y2: H - B, stroke: INK });
    const lo = (a, b) => Math.min(a, b), hi = (a, b) => Math.max(a, b);
    // Ticks where the labels are: a mark on the axis at every round value.
    for (const t of o.xticks || niceTicks(lo(x0, x1), hi(x0, x1))) {
      add("line", { x1: X(t), x2: X(t), y1: H - B, y2: H - B + 4, stroke: INK, class: "clf-tick" });
      add("text", { x: X(t), y: H - B + 14, "text-anchor": "middle" }, (o.xfmt || ((v) => fmtG(v, 3)))(t));
    }
    for (const t of o.yticks || niceTicks(lo(y0, y1), hi(y0, y1))) {
      add("line", { x1: L - 4, x2: L, y1: Y(t), y2: Y(t), stroke: INK, class: "clf-tick" });
      add("text", { x: L - 6, y: Y(t) + 4, "text-anchor": "end" }, fmtG(t, 3));
    }
    for (const b of o.bands || []) {
      const up = b.xs.map((x, k) => `${X(x).toFixed(1)},${Y(b.high[k]).toFixed(1)}`);
      const down = b.xs.map((x, k) => `${X(x).toFixed(1)},${Y(b.low[k]).toFixed(1)}`).reverse();
      add("path", { d: `M${up.join("L")}L${down.join("L")}Z`, fill: b.color, "fill-opacity": 0.3,
                    stroke: "none", class: "clf-band" });
    }
    add("text", { x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle" }, o.xlabel || "");
    for (const t of o.ytext || []) add("text", { x: L - 4, y: Y(t.y) + 4, "text-anchor": "end" }, t.text);
    for (const h of o.hlines || []) {
      add("line", { x1: L, x2: W - R, y1: Y(h.y), y2: Y(h.y), stroke: h.color || INK,
                    "stroke-dasharray": "2 3" });
    }
    for (const b of o.bars || []) {
      add("rect", { x: X(b.x0), width: Math.max(X(b.x1) - X(b.x0), 0.5), y: Y(Math.max(b.y, y0)),
                    height: Math.max(Y(y0) - Y(Math.max(b.y, y0)), 0), fill: b.color,
                    "fill-opacity": b.opacity || 1 });
    }
    for (const s of o.lines || []) {
      let d = "", pen = false;
      s.xs.forEach((x, k) => {
        const y = s.ys[k];
        if (!Number.isFinite(y) || !Number.isFinite(x)) { pen = false; return; }
        d += `${pen ? "L" : "M"}${X(x).toFixed(1)},${Y(y).toFixed(1)}`;
        pen = true;
      });
      add("path", { d, fill: "none", stroke: s.color, "stroke-width": 1.8,
                    "stroke-dasharray": s.dash || "none" });
    }
    for (const v of o.vlines || []) {
      add("line", { x1: X(v.x), x2: X(v.x), y1: T, y2: H - B, stroke: v.color || INK,
                    "stroke-width": 1.5 });
    }
    for (const e of o.crosses || []) {
      add("line", { x1: X(e.x0), x2: X(e.x1), y1: Y(e.y), y2: Y(e.y), stroke: e.color,
                    "stroke-width": 2, class: "clf-cross" });
      add("line", { x1: X(e.x), x2: X(e.x), y1: Y(e.y0), y2: Y(e.y1), stroke: e.color,
                    "stroke-width": 2, class: "clf-cross" });
    }
    for (const p of o.points || []) {
      if (!Number.isFinite(p.y)) continue;
      if (p.square) add("rect", { x: X(p.x) - 5, y: Y(p.y) - 5, width: 10, height: 10, fill: p.color, stroke: INK });
      else add("circle", { cx: X(p.x), cy: Y(p.y), r: 5, fill: p.color, stroke: INK });
    }
    if (o.legend) {
      const leg = el("ul", { class: "clf-legend" });
      o.legend.forEach(([name, color, dash, area]) => {
        const sw = el("span", { class: "clf-swatch", "aria-hidden": "true" });
        if (area) { sw.style.height = "0.8em"; sw.style.background = color; sw.style.opacity = 0.4; }
        else sw.style.borderTop = `3px ${dash ? "dashed" : "solid"} ${color}`;
        leg.append(el("li", {}, [sw, name]));
      });
      return el("figure", { class: "clf-figure" }, [svg, leg]);
    }
    return el("figure", { class: "clf-figure" }, [svg]);
  }

  // Grouped vertical bars: groups (labels) x series (name, values, color).
  function groupedBars(o) {
    const bars = [], G = o.groups.length, S = o.series.length;
    o.series.forEach((s, k) => s.values.forEach((v, g) => {
      const x0 = g + 0.1 + (0.8 * k) / S;
      bars.push({ x0, x1: x0 + 0.8 / S, y: Number.isFinite(v) ? v : 0, color: s.color });
    }));
    const fig = chart({ ...o, xlim: [0, G], bars, xticks: [],
                        legend: o.series.map((s) => [s.name, s.color]) });
    const svg = fig.querySelector("svg");
    o.groups.forEach((name, g) => {
      const t = document.createElementNS(SVGNS, "text");
      const W = o.width || 330;
      t.setAttribute("x", 40 + ((g + 0.5) / G) * (W - 50));
      t.setAttribute("y", (o.height || 210) - 21);
      t.setAttribute("text-anchor", "middle");
      t.textContent = name;
      svg.append(t);
    });
    return fig;
  }

  // --- the frame shared by every explorer --------------------------------------------------
  function frame(root, spec) {
    root.innerHTML = "";
    root.classList.add("clf-ready");
    const heading = el("p", { class: "clf-heading" }, [
      el("strong", { text: spec.title }),
      " (runs in this page: no kernel, no network)",
    ]);
    const controls = el("div", { class: "clf-controls" });
    const status = el("p", { class: "clf-status", role: "status" });
    // The live region is read out by screen readers and hidden on screen: the readout
    // tables show the same numbers, and one line printed twice is noise.
    const live = el("p", { class: "clf-live clf-sr-only", "aria-live": "polite" });
    // The readout scrolls sideways when its tables are wider than the column beside the
    // figures: a region the keyboard can reach and scroll (WCAG 2.1.1; axe's
    // scrollable-region-focusable).
    const readout = el("div", {
      class: "clf-readout",
      tabindex: "0",
      role: "region",
      "aria-label": `${spec.title}: readout`,
    });
    const figures = el("div", { class: "clf-figures" });
    const side = el("div", { class: "clf-side" }, [controls, status, live, readout]);
    root.append(heading, el("div", { class: "clf-body" }, [side, figures]));
    return { controls, status: (t) => (status.textContent = t), live, readout, figures };
  }

  // A folded table or note that the reader opened stays open when its readout is drawn again.
  function replace(node, ...children) {
    const opened = new Set([...node.querySelectorAll('button[data-fold][aria-expanded="true"], details[data-fold][open]')]
      .map((e) => e.dataset.fold));
    node.replaceChildren(...children.filter(Boolean));
    for (const e of node.querySelectorAll("[data-fold]")) {
      if (!opened.has(e.dataset.fold)) continue;
      if (e.tagName === "DETAILS") e.open = true;
      else e.click();
    }
  }

  // An editable matrix: one number input per cell, rows = predicted, columns = true.
  function matrixEditor(m, names, onEdit, status) {
    const n = m.length;
    const grid = el("table", { class: "clf-table clf-matrix" });
    grid.append(el("caption", { text: "Counts: rows = predicted, columns = true" }));
    grid.append(el("tr", {}, [el("th", { scope: "col", text: "pred \\ true" }),
                              ...names.map((s) => el("th", { scope: "col", text: s }))]));
    const inputs = [];
    for (let i = 0; i < n; i++) {
      const row = [el("th", { scope: "row", text: names[i] })];
      inputs.push([]);
      for (let j = 0; j < n; j++) {
        const input = el("input", { type: "number", min: 0, max: MAX_COUNT, step: 1,
                                    value: m[i][j], "data-cell": `${i},${j}`,
                                    "aria-label": `predicted ${names[i]}, true ${names[j]}` });
        input.addEventListener("input", () => {
          const v = Number(input.value);
          if (input.value === "" || !Number.isInteger(v) || v < 0 || v > MAX_COUNT) {
            status(`The cell predicted ${names[i]}, true ${names[j]} must be a whole count from 0 to ${MAX_COUNT}.`);
            return;
          }
          status("");
          onEdit(i, j, v);
        });
        inputs[i].push(input);
        row.push(el("td", {}, [input]));
      }
      grid.append(el("tr", {}, row));
    }
    return { node: grid, show: (mm) => inputs.forEach((r, i) => r.forEach((x, j) => (x.value = mm[i][j]))) };
  }

  const total = (m) => m.flat().reduce((a, x) => a + x, 0);
  const copy = (m) => m.map((r) => r.slice());
  const metricRows = (names, values) => names.map((k) => [k, { text: fmt(values[k]), key: k }]);

  // --- 1. confusion matrix ---------------------------------------------------------------
  // As clfbook.widgets.intervals.interval_text and confusion.INTERVAL_NOTE.
  const intervalText = (lo, hi) => (Number.isNaN(lo) || Number.isNaN(hi) ? "too few items"
    : lo === hi ? "no spread seen" : `[${fmt(lo)}, ${fmt(hi)}]`);
  const INTERVAL_NOTE = "Accuracy and the micro averages (the same number): exact Clopper–Pearson " +
    "interval of correct out of all. Every other metric: estimate ± z × its jackknife standard " +
    "error, a large-sample normal interval cut to the metric's range; leave-one-out matrices on " +
    "which the metric is 0/0 are left out. Both assume independent items; the jackknife also " +
    "enough of them. “no spread seen”: no single item changes the metric.";
  function confusion(root, spec) {
    const f = frame(root, spec);
    let m = copy(spec.matrix), editor;
    const names = () => (spec.labels.length === m.length ? spec.labels : m.map((_, k) => String(k)));
    const size = numberInput("classes", m.length, 2, 6, (n) => {
      const out = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) =>
        i < m.length && j < m.length ? m[i][j] : i === j ? 1 : 0));
      m = out;
      build();
    }, f.status);
    const holder = el("div");
    f.controls.append(size.node, holder);
    function build() {
      editor = matrixEditor(m, names(), (i, j, v) => { m[i][j] = v; refresh(); }, f.status);
      replace(holder, editor.node);
      refresh();
    }
    function refresh() {
      if (total(m) === 0) {
        f.live.textContent = "All counts are 0: there is nothing to evaluate.";
        replace(f.readout); replace(f.figures);
        return;
      }
      const values = CM().metrics(m, 0), cw = CM().classwise(m, 0), nm = names();
      // A spec from a cached execution of an older chapter has no level or scales: 95 %, and
      // no narrowing figure (a fresh build writes both).
      const level = spec.level || 0.95, scales = spec.scales || [1];
      const ci = CM().exactIntervals(m, level), pct = `${Math.round(level * 100)} %`;
      const span = ([lo, hi], key) => ({ text: `[${fmt(lo)}, ${fmt(hi)}]`, key });
      f.live.textContent = `accuracy ${fmt(values.accuracy)} [${fmt(ci.accuracy[0])}, ${fmt(ci.accuracy[1])}], ` +
        `macro F1 ${fmt(values.macro_f1)}, kappa ${fmt(values.kappa)}, MCC ${fmt(values.mcc)}`;
      // Accuracy (and micro P, R, F1, the same number) is k of N: it has an exact interval.
      // Every other metric: estimate +- z x jackknife standard error (clfmetrics.inference),
      // as clfbook.widgets.intervals.metric_intervals, for the matrix the reader set.
      const mi = CM().metricIntervals(m, level);
      replace(f.readout,
        table(["metric", "value", `${pct} interval`], spec.metrics.map((k) => [k, { text: fmt(values[k]), key: k },
          { text: intervalText(mi[k][0], mi[k][1]), key: `interval:${k}` }]),
          `|S| = ${total(m)}`),
        el("details", { class: "clf-note-fold", "data-fold": "interval-note" }, [
          el("summary", { text: "What these intervals assume" }), el("p", { class: "clf-note", text: INTERVAL_NOTE })]),
        table(["class", "bias", "prevalence", "P", `P ${pct}`, "R", `R ${pct}`, "F1"], nm.map((s, i) => [s,
          { text: String(cw.bias[i]), key: `bias:${i}` }, { text: String(cw.prevalence[i]), key: `prevalence:${i}` },
          { text: fmt(cw.precision[i]), key: `precision:${i}` }, span(ci.precision[i], `interval:precision:${i}`),
          { text: fmt(cw.recall[i]), key: `recall:${i}` }, span(ci.recall[i], `interval:recall:${i}`),
          { text: fmt(cw.f1[i]), key: `f1:${i}` }]), "Per class, exact (Clopper–Pearson) intervals"));
      const N = total(m), C = m.reduce((a, r, k) => a + r[k], 0);
      const items = scales.map((x) => x * N);
      const widths = scales.map((x) => { const [lo, hi] = CM().clopperPearson(C * x, N * x, level); return hi - lo; });
      const narrowing = chart({ title: "accuracy interval: width as counts grow", width: 330,
        xlim: [0, Math.log10(items[items.length - 1])], ylim: [0, Math.max(...widths)],
        xticks: niceTicks(0, Math.log10(items[items.length - 1])).filter(Number.isInteger),
        xfmt: (t) => fmtG(10 ** t, 3), xlabel: "items (log scale), same proportions",
        label: `Width of the ${pct} exact accuracy interval if every count were multiplied by ` +
          `${scales.join(", ")}: ${widths.map((w, k) => `${items[k]} items ${fmt(w)}`).join("; ")}.`,
        lines: [{ xs: items.map(Math.log10), ys: widths, color: COLORS[3] }],
        points: [{ x: Math.log10(N), y: widths[0], color: COLORS[4] }],
        legend: [["width of the accuracy interval", COLORS[3]], ["these counts", COLORS[4]]] });

      const top = Math.max(...cw.bias, ...cw.prevalence);
      replace(f.figures,
        groupedBars({ title: "per class P, R, F1", groups: nm, ylim: [0, 1],
          label: `Bars of precision, recall and F1 per class: ${nm.map((s, i) =>
            `${s} P ${fmt(cw.precision[i])} R ${fmt(cw.recall[i])}`).join("; ")}`,
          series: [{ name: "precision", values: cw.precision, color: COLORS[0] },
                   { name: "recall", values: cw.recall, color: COLORS[1] },
                   { name: "F1", values: cw.f1, color: COLORS[2] }] }),
        groupedBars({ title: "bias and prevalence", groups: nm, ylim: [0, top],
          label: `Bars of bias and prevalence per class: ${nm.map((s, i) =>
            `${s} bias ${cw.bias[i]} prevalence ${cw.prevalence[i]}`).join("; ")}`,
          series: [{ name: "bias (row sum)", values: cw.bias, color: COLORS[3] },
                   { name: "prevalence (column sum)", values: cw.prevalence, color: COLORS[4] }] }),
        scales.length > 1 ? narrowing : null);
    }
    build();
    return { state: () => ({ matrix: copy(m), metrics: CM().metrics(m, 0), classwise: CM().classwise(m, 0),
                             intervals: total(m) ? CM().exactIntervals(m, spec.level || 0.95) : null,
                             metricIntervals: total(m) ? CM().metricIntervals(m, spec.level || 0.95) : null }) };
  }

  // --- 2. the two macro F1s ----------------------------------------------------------------
  const roundHalfEven = (x) => {
    const r = Math.round(x);
    return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
  };

  function skewErrors(m, t) {
    const out = copy(m), n = m.length;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) {
      const e = m[i][j] + m[j][i], above = roundHalfEven(t * e);
      out[i][j] = above; out[j][i] = e - above;
    }
    return out;
  }

  function errorSkew(m) {
    let above = 0, errors = 0;
    m.forEach((r, i) => r.forEach((x, j) => { if (j > i) above += x; if (i !== j) errors += x; }));
    return errors > 0 ? above / errors : 0.5;
  }

  function macroF1State(m, spec) {
    const M = CM().METRICS, sup = spec.supremum[String(m.length)], delta = M.delta_f1(m, 0);
    return { macro_f1: M.macro_f1(m, 0), f1_of_averages: M.f1_of_averages(m, 0), delta_f1: delta,
             supremum: sup, share_of_supremum: delta / sup, skew: errorSkew(m) };
  }

  function macroF1(root, spec) {
    const f = frame(root, spec);
    let m = copy(spec.matrix), editor;
    const names = () => m.map((_, k) => "abc"[k]);
    const holder = el("div");
    const skew = slider("error skew", 100, Math.round(errorSkew(m) * 100), (i) => {
      if (total(m) === 0 || total(m) === m.reduce((a, r, k) => a + r[k], 0)) return;
      m = skewErrors(m, i / 100);
      editor.show(m);
      refresh(false);
    }, (i) => (i / 100).toFixed(2));
    const presets = el("span", { class: "clf-control", role: "group", "aria-label": "presets" },
      Object.keys(spec.presets).map((name) => el("button", { type: "button", text: name,
        onclick: () => { m = copy(spec.presets[name]); build(); } })));
    f.controls.append(presets, holder, skew.node);
    function build() {
      editor = matrixEditor(m, names(), (i, j, v) => { m[i][j] = v; refresh(true); }, f.status);
      replace(holder, editor.node);
      refresh(true);
    }
    function refresh(moveSlider) {
      if (total(m) === 0) {
        f.live.textContent = "All counts are 0: there is nothing to evaluate.";
        replace(f.readout); replace(f.figures);
        return;
      }
      const s = macroF1State(m, spec);
      if (moveSlider) skew.set(Math.round(s.skew * 100));
      f.live.textContent = `macro F1 ${fmt(s.macro_f1)}, F1 of averages ${fmt(s.f1_of_averages)}, Δ ${fmt(s.delta_f1)}`;
      replace(f.readout, table(["quantity", "value"], [
        ["macro F1 (mean of F1_i)", { text: fmt(s.macro_f1), key: "macro_f1" }],
        ["F1 of averages H(macP, macR)", { text: fmt(s.f1_of_averages), key: "f1_of_averages" }],
        ["Δ (closed form)", { text: fmt(s.delta_f1), key: "delta_f1" }],
        [`sup Δ for n = ${m.length}`, { text: fmt(s.supremum), key: "supremum" }],
        ["Δ / sup", { text: fmt(s.share_of_supremum), key: "share_of_supremum" }]]));
      const stack = spec.grid.map((t) => skewErrors(m, t)), M = CM().METRICS;
      const lines = [["macro F1 (mean of F1_i)", (x) => M.macro_f1(x, 0), COLORS[0]],
                     ["F1 of averages H(macP, macR)", (x) => M.f1_of_averages(x, 0), COLORS[3]],
                     ["Δ", (x) => M.delta_f1(x, 0), COLORS[4], "5 3"]];
      replace(f.figures, chart({ title: "same errors, different direction", xlim: [0, 1], ylim: [0, 1.02],
        xlabel: "share of each error pair above the diagonal", yticks: [0, 0.5, 1],
        label: `Both macro F1s and Δ against the error skew; the current skew ${s.skew.toFixed(2)} is marked.`,
        lines: lines.map(([, fn, color, dash]) => ({ xs: spec.grid, ys: stack.map(fn), color, dash })),
        vlines: [{ x: s.skew }], hlines: [{ y: s.supremum }],
        legend: [...lines.map(([name, , c, d]) => [name, c, d]), [`sup Δ for n = ${m.length}`, INK, true]] }));
    }
    build();
    return { state: () => ({ matrix: copy(m), readout: total(m) ? macroF1State(m, spec) : null }) };
  }

  // --- 3. non-monotonicity ------------------------------------------------------------------
  function nonmonotonicity(root, spec) {
    const f = frame(root, spec), n = spec.matrix.length, nm = spec.labels, M = CM().METRICS;
    let m, trace, cell = spec.cell.slice();
    const now = (mm) => Object.fromEntries(spec.metrics.map((k) => [k, M[k](mm, 0)]));
    const select = el("select", {}, [].concat(...nm.map((_, i) => nm.map((_, j) => i === j ? null :
      el("option", { value: `${i},${j}`, text: `predicted ${nm[i]}, true ${nm[j]} (${i}, ${j})` }))))
      .filter(Boolean));
    select.value = cell.join(",");
    select.addEventListener("change", () => (cell = select.value.split(",").map(Number)));
    const step = numberInput("errors", spec.step, 1, 1000, () => {}, f.status);
    const add = el("button", { type: "button", text: "add errors", onclick: () => {
      const k = Number(step.input.value);
      if (!Number.isInteger(k) || k < 1 || k > 1000) return;
      for (let s = 0; s < k; s++) {
        m[cell[0]][cell[1]] += 1;
        const v = now(m);
        spec.metrics.forEach((name) => trace[name].push(v[name]));
      }
      refresh();
    } });
    const reset = el("button", { type: "button", text: "reset", onclick: () => start() });
    f.controls.append(labelled("cell", select), step.node, add, reset);
    function start() {
      m = copy(spec.matrix);
      const v = now(m);
      trace = Object.fromEntries(spec.metrics.map((k) => [k, [v[k]]]));
      refresh();
    }
    function refresh() {
      const added = trace[spec.metrics[0]].length - 1;
      const rows = spec.metrics.map((k) => {
        const a = trace[k][0], b = trace[k][added];
        return [k, fmt(a), { text: fmt(b), key: k }, b > a + 1e-12 ? "rose" : b < a - 1e-12 ? "fell" : "same"];
      });
      f.live.textContent = `${added} errors added: ` + spec.metrics.map((k) => `${k} ${fmt(trace[k][added])}`).join(", ");
      replace(f.readout,
        table(["pred \\ true", ...nm], m.map((r, i) => [nm[i], ...r.map((x, j) => ({ text: String(x), key: `m:${i},${j}` }))]),
              `${added} errors added`),
        table(["metric", "start", "now", "change"], rows));
      const xs = trace[spec.metrics[0]].map((_, k) => k), all = [].concat(...Object.values(trace));
      replace(f.figures, chart({ title: "adding errors one at a time", xlim: [0, Math.max(added, 1)],
        ylim: [Math.min(0, ...all), Math.max(1, ...all)], xlabel: "errors added",
        label: `Traces of ${spec.metrics.join(", ")} against the ${added} errors added.`,
        lines: spec.metrics.map((k, c) => ({ xs, ys: trace[k], color: COLORS[c] })),
        legend: spec.metrics.map((k, c) => [k, COLORS[c]]) }));
    }
    start();
    return { state: () => ({ matrix: copy(m), trace: JSON.parse(JSON.stringify(trace)) }) };
  }

  // --- 4. the F-measure paradox --------------------------------------------------------------
  const same = (x, y) => (Number.isNaN(x) || Number.isNaN(y) ? Number.isNaN(x) && Number.isNaN(y)
    : Math.abs(x - y) <= Math.max(1e-12 * Math.max(Math.abs(x), Math.abs(y)), 1e-15));

  function propositions(a, b, h) {
    const aZero = same(a, 0);
    return { 1: !aZero || same(h, 0), 2: !same(h, 0) || aZero,
             3: !(!aZero && same(h, a)) || same(b, a), 4: !(!aZero && same(h, b)) || same(b, a) };
  }

  function paradoxState(c) {
    const m = [[c[0], c[1]], [c[2], c[3]]], out = {};
    for (const [key, fill] of [["zero", 0], ["nan", NaN]]) {
      const cw = CM().classwise(m, fill);
      out[key] = { precision: cw.precision[0], recall: cw.recall[0], f1: cw.f1[0] };
    }
    const pz = propositions(out.zero.precision, out.zero.recall, out.zero.f1);
    const pn = propositions(out.nan.precision, out.nan.recall, out.nan.f1);
    out.propositions = Object.fromEntries([1, 2, 3, 4].map((k) => [k, { zero: pz[k], nan: pn[k] }]));
    return out;
  }

  function paradox(root, spec) {
    const f = frame(root, spec), c = spec.counts.slice();
    ["TP", "FP", "FN"].forEach((name, k) => f.controls.append(
      numberInput(name, c[k], 0, MAX_COUNT, (v) => { c[k] = v; refresh(); }, f.status).node));
    f.controls.append(el("span", { class: "clf-control", text: `TN = ${c[3]}` }));
    function refresh() {
      if (c[0] + c[1] + c[2] + c[3] === 0) {
        f.live.textContent = "TP + FP + FN + TN must be positive: there is nothing to evaluate.";
        return;
      }
      const r = paradoxState(c);
      f.live.textContent = `0/0 = 0: P ${fmt(r.zero.precision)}, R ${fmt(r.zero.recall)}, F1 ${fmt(r.zero.f1)}; ` +
        `0/0 = NaN: P ${fmt(r.nan.precision)}, R ${fmt(r.nan.recall)}, F1 ${fmt(r.nan.f1)}`;
      replace(f.readout,
        table(["", "precision a", "recall b", "F1 = H(a, b)"], [["zero", "0/0 = 0"], ["nan", "0/0 = NaN"]].map(([k, label]) =>
          [label, ...["precision", "recall", "f1"].map((q) => ({ text: fmt(r[k][q]), key: `${k}:${q}` }))])),
        table(["proposition", "holds (0/0 = 0)", "holds (0/0 = NaN)", "talk: HM", "talk: F1"],
          Object.entries(spec.propositions).map(([k, text]) => [text,
            { ...mark(r.propositions[k].zero), key: `prop:${k}:zero` }, { ...mark(r.propositions[k].nan), key: `prop:${k}:nan` },
            mark(spec.verdicts[k][0]), mark(spec.verdicts[k][1])])));
    }
    refresh();
    return { state: () => paradoxState(c) };
  }

  // --- 5. prevalence --------------------------------------------------------------------
  function prevalence(root, spec) {
    const f = frame(root, spec), lam = spec.lambdas, idx = spec.start.slice();
    const scaled = () => spec.matrix.map((r) => r.map((x, j) => x * lam[j][idx[j]]));
    spec.labels.forEach((name, j) => f.controls.append(slider(`λ ${name}`, lam[j].length - 1, idx[j],
      (i) => { idx[j] = i; refresh(); }, (i) => fmtG(lam[j][i], 3)).node));
    const state = () => {
      const before = CM().metrics(spec.matrix, 0), after = CM().metrics(scaled(), 0);
      const changed = Object.fromEntries(spec.metrics.map((k) => [k, Math.abs(after[k] - before[k]) > 1e-12]));
      return { lambda: idx.map((i, j) => lam[j][i]), scaled: scaled(), before, after, changed };
    };
    function refresh() {
      const s = state(), moved = spec.metrics.filter((k) => s.changed[k]);
      f.live.textContent = `λ = ${s.lambda.map((x) => fmtG(x, 3)).join(", ")}; moved: ${moved.join(", ") || "none"}`;
      replace(f.readout,
        table(["metric", "m", "m·λ", "moved"], spec.metrics.map((k) => [k, fmt(s.before[k]),
          { text: fmt(s.after[k]), key: k }, { ...mark(s.changed[k]), key: `moved:${k}` }])),
        table(["pred \\ true", ...spec.labels], s.scaled.map((r, i) => [spec.labels[i], ...r.map((x) => fmtG(x))]),
              "scaled matrix m·λ (rows = predicted, columns = true)"));
      const lo = Math.min(0, ...Object.values(s.before), ...Object.values(s.after).filter(Number.isFinite));
      replace(f.figures, groupedBars({ title: "every metric before and after scaling", width: 660,
        groups: spec.metrics.map((k, i) => String(i + 1)), ylim: [lo, 1],
        label: `Bars of each metric for m and m·λ; moved: ${moved.join(", ") || "none"}. Bars are numbered in the order of the table.`,
        series: [{ name: "m", values: spec.metrics.map((k) => s.before[k]), color: COLORS[1] },
                 { name: "m·λ", values: spec.metrics.map((k) => s.after[k]), color: COLORS[4] }] }));
    }
    refresh();
    return { state };
  }

  // --- 6. chance baseline -------------------------------------------------------------------
  function chance(root, spec) {
    const f = frame(root, spec), n = spec.n, L = spec.levels.length;
    const last = L - 1, pk = new Array(n).fill(last), zk = new Array(n).fill(last);
    const group = (title, keys, kind) => el("fieldset", { class: "clf-fieldset" }, [el("legend", { text: title }),
      ...keys.map((_, k) => slider(`${kind} ${k}`, last, last, (i) => { keys[k] = i; refresh(); },
        (i) => spec.levels[i].toFixed(2)).node)]);
    f.controls.append(group("data: prevalence (weights)", pk, "P(c=k)"),
      group("classifier: prediction distribution (weights)", zk, "P(f→k)"),
      el("p", { text: `${spec.settings.n_sets} data sets of ${spec.settings.n_items} items, seed ${spec.settings.seed} ` +
        "(fixed in the page version; every weight is 0, 0.5 or 1)" }));
    const state = () => {
      const ip = spec.index[pk.join(",")], iz = spec.index[zk.join(",")];
      if (ip === undefined || iz === undefined) return null;
      const p = spec.vectors[ip], z = spec.vectors[iz], stats = spec.stats[ip * spec.vectors.length + iz];
      const limits = CM().metrics(z.map((zi) => p.map((pj) => zi * pj)), 0);
      const summary = {};
      spec.metrics.forEach((k, r) => (summary[k] = { mean: stats[r][0] / 1e4, q05: stats[r][1] / 1e4,
        q95: stats[r][2] / 1e4, omega: spec.omega[k], limit: limits[k] }));
      return { prevalence: p, prediction: z, summary };
    };
    function refresh() {
      const s = state();
      if (!s) {
        f.live.textContent = "Each distribution needs a positive weight.";
        replace(f.readout); replace(f.figures);
        return;
      }
      const dist = s.prevalence.map((a, k) => `${a.toFixed(2)}/${s.prediction[k].toFixed(2)}`).join(", ");
      f.live.textContent = `prevalence/prediction per class: ${dist}; mean kappa ${fmt(s.summary.kappa.mean)}, ` +
        `mean accuracy ${fmt(s.summary.accuracy.mean)}`;
      replace(f.readout, table(["metric", "mean", "5%", "95%", "ω(n)", "limit"], spec.metrics.map((k) => {
        const q = s.summary[k];
        return [k, { text: fmt(q.mean), key: `mean:${k}` }, { text: fmt(q.q05), key: `q05:${k}` },
                { text: fmt(q.q95), key: `q95:${k}` }, fmt(q.omega), { text: fmt(q.limit), key: `limit:${k}` }];
      }), `prevalence/prediction per class: ${dist}`));
      const sh = spec.shown, y = (k) => sh.length - sh.indexOf(k);
      replace(f.figures, chart({ title: "chance scores: 5%–95% range, mean (dot), ω(n) (square)", width: 520,
        height: 60 + 30 * sh.length, xlim: [-1, 1], ylim: [0, sh.length + 1], xticks: [-1, 0, 1 / n, 1],
        yticks: [], left: 110, ytext: sh.map((k) => ({ y: y(k), text: k })), xlabel: "score",
        label: `Ranges of the chance scores: ${sh.map((k) => `${k} mean ${fmt(s.summary[k].mean)}`).join(", ")}`,
        lines: sh.map((k, c) => ({ xs: [s.summary[k].q05, s.summary[k].q95], ys: [y(k), y(k)], color: COLORS[c] })),
        points: [...sh.map((k, c) => ({ x: s.summary[k].mean, y: y(k), color: COLORS[c] })),
                 ...sh.filter((k) => spec.omega[k] !== null).map((k) => ({ x: spec.omega[k], y: y(k) + 0.3, color: "transparent", square: true }))] }));
    }
    refresh();
    return { state };
  }

  // --- 7. metric chooser -------------------------------------------------------------------
  function chooser(root, spec) {
    const f = frame(root, spec), ticked = new Set();
    let calibrated = false;
    const box = el("fieldset", { class: "clf-fieldset" }, [el("legend", { text: "Which properties do you need?" })]);
    for (const [code, name] of Object.entries(spec.properties)) {
      const input = el("input", { type: "checkbox", value: code });
      input.addEventListener("change", () => { input.checked ? ticked.add(code) : ticked.delete(code); refresh(); });
      box.append(labelled(`${code} ${name}`, input));
    }
    const toggle = el("button", { type: "button", "aria-pressed": "false", text: "after calibration",
      onclick: () => { calibrated = !calibrated; toggle.setAttribute("aria-pressed", String(calibrated)); refresh(); } });
    f.controls.append(box, toggle);
    const isCal = (name) => name.endsWith("~");
    const matching = () => Object.entries(spec.table).filter(([name, props]) =>
      (calibrated || !isCal(name)) && [...ticked].every((c) => props[c] === true)).map(([name]) => name);
    function refresh() {
      const found = matching(), codes = Object.keys(spec.properties);
      f.live.textContent = `Matching: ${found.join(", ") || "none"}`;
      replace(f.readout, el("p", { "data-key": "matching", text: `Matching: ${found.join(", ") || "none"}` }),
        table(["metric", ...codes], Object.entries(spec.table).filter(([name]) => calibrated || !isCal(name))
          .map(([name, props]) => [{ text: name, bold: found.includes(name) }, ...codes.map((c) => mark(props[c] === true))])));
    }
    refresh();
    return { state: () => ({ required: [...ticked], calibrated, matching: matching() }) };
  }

  // --- 8. threshold ----------------------------------------------------------------------
  function threshold(root, spec) {
    const f = frame(root, spec), M = CM().METRICS, th = spec.thresholds;
    const stack = spec.stack.map((q) => [[q[0], q[1]], [q[2], q[3]]]);
    const negatives = stack[0][0][0], positives = stack[0][0][1];
    const fpr = stack.map((m) => m[1][0] / negatives), tpr = stack.map((m) => m[1][1] / positives);
    const prec = stack.map((m) => (m[1][0] + m[1][1] > 0 ? m[1][1] / (m[1][0] + m[1][1]) : NaN));
    const xs = [Math.max(...th) + (th[0] - th[th.length - 1]) / 50, ...th];  // +inf drawn past the top score
    const curves = Object.entries(spec.curves).map(([label, name], c) => ({ label, color: COLORS[c],
      ys: stack.map((m) => M[name](m, 0)) }));
    let i = spec.start;
    const tOf = (i) => spec.low + i * spec.step;
    const kOf = (t) => th.filter((s) => s >= t).length;
    const s = slider("threshold t", spec.steps, i, (j) => { i = j; refresh(); }, (j) => fmtG(tOf(j), 4));
    s.input.classList.add("clf-wide");
    f.controls.append(s.node);
    const state = () => {
      const t = tOf(i), k = kOf(t), m = stack[k], cw = CM().classwise(m, NaN);
      return { t, k, matrix: m, bias: cw.bias, prevalence: cw.prevalence, precision: cw.precision[1],
               recall: cw.recall[1], metrics: CM().metrics(m, 0), rates: rates(m) };
    };
    // The operating point's rates with exact intervals, as clfbook.widgets.intervals:
    // name -> [estimate, low, high]; [NaN, 0, 1] when nothing is in the denominator.
    function rates(m) {
      const [[tn, fn], [fp, tp]] = m, out = {};
      for (const [name, k, n] of [["sensitivity", tp, tp + fn], ["specificity", tn, tn + fp],
                                  ["precision", tp, tp + fp], ["npv", tn, tn + fn]]) {
        out[name] = [n > 0 ? k / n : NaN, ...CM().clopperPearson(k, n, spec.level)];
      }
      return out;
    }
    const band = spec.band, pct = `${Math.round(spec.level * 100)} %`;
    function refresh() {
      const st = state(), m = st.matrix, b = st.bias, p = st.prevalence, N = b[0] + b[1];
      const caption = `t = ${fmtG(st.t, 4)}: bias(pos) = ${(b[1] / N).toFixed(3)}, prevalence(pos) = ` +
        `${(p[1] / N).toFixed(3)}, P = ${fmt(st.precision)}, R = ${fmt(st.recall)}`;
      f.live.textContent = `${caption}; accuracy ${fmt(st.metrics.accuracy)}, macro F1 ${fmt(st.metrics.macro_f1)}`;
      const c = (x, key) => ({ text: String(x), key });
      replace(f.readout,
        table(["pred \\ true", "negative", "positive", "bias"], [
          ["pred negative", c(m[0][0], "m:0,0"), c(m[0][1], "m:0,1"), c(b[0], "bias:0")],
          ["pred positive", c(m[1][0], "m:1,0"), c(m[1][1], "m:1,1"), c(b[1], "bias:1")],
          ["prevalence", c(p[0], "prevalence:0"), c(p[1], "prevalence:1"), String(N)]], caption),
        table(["rate", "value", `${pct} exact interval`], Object.entries(spec.rates).map(([label, key]) => {
          const [e, lo, hi] = st.rates[key];
          return [label, { text: fmt(e), key: `rate:${key}` },
                  { text: `[${fmt(lo)}, ${fmt(hi)}]`, key: `rate:${key}:interval` }];
        }), "for a threshold fixed in advance (Clopper–Pearson)"),
        table(["metric", "value"], metricRows(spec.metrics, st.metrics)));
      const k = st.k, sens = st.rates.sensitivity, spc = st.rates.specificity, tx = Math.min(Math.max(st.t, spec.edges[0]), spec.edges[spec.edges.length - 1]);
      const tops = Math.max(...spec.negatives, ...spec.positives), E = spec.edges;
      const hist = (counts, color) => counts.map((y, h) => ({ x0: E[h], x1: E[h + 1], y, color, opacity: 0.6 }));
      replace(f.figures,
        chart({ title: "metrics against the threshold", xlim: [xs[xs.length - 1], xs[0]], ylim: [-0.05, 1.02],
          xlabel: "threshold t", label: `Metrics against the threshold; line at t = ${fmtG(st.t, 4)}.`,
          lines: curves.map((cv) => ({ xs, ys: cv.ys, color: cv.color })), vlines: [{ x: Math.min(st.t, xs[0]) }],
          legend: curves.map((cv) => [cv.label, cv.color]) }),
        chart({ title: "ROC curve with its band", xlim: [0, 1], ylim: [0, 1], xlabel: "false positive rate",
          label: `ROC curve inside its ${pct} ${band.simultaneous ? "simultaneous" : "pointwise"} bootstrap band; ` +
            `the current threshold at false positive rate ${fmt(fpr[k])} [${fmt(1 - spc[2])}, ${fmt(1 - spc[1])}], ` +
            `recall ${fmt(tpr[k])} [${fmt(sens[1])}, ${fmt(sens[2])}].`,
          bands: [{ xs: band.x, low: band.low, high: band.high, color: COLORS[1] }],
          lines: [{ xs: fpr, ys: tpr, color: COLORS[3] }],
          crosses: [{ x: fpr[k], y: tpr[k], x0: 1 - spc[2], x1: 1 - spc[1], y0: sens[1], y1: sens[2], color: COLORS[4] }],
          points: [{ x: fpr[k], y: tpr[k], color: COLORS[4] }],
          legend: [[`${pct} ${band.simultaneous ? "simultaneous" : "pointwise"} band`, COLORS[1], false, true],
                   ["ROC curve", COLORS[3]], ["current point, exact intervals", COLORS[4]]] }),
        chart({ title: "precision–recall curve", xlim: [0, 1], ylim: [0, 1], xlabel: "recall",
          label: `Precision–recall curve; the current threshold at recall ${fmt(tpr[k])}, precision ${fmt(prec[k])}.`,
          lines: [{ xs: tpr, ys: prec, color: COLORS[2] }], points: [{ x: tpr[k], y: prec[k], color: COLORS[4], square: true }] }),
        chart({ title: "scores of the two classes", xlim: [E[0], E[E.length - 1]], ylim: [0, tops],
          xlabel: "score (line: threshold)", bars: [...hist(spec.negatives, COLORS[1]), ...hist(spec.positives, COLORS[0])],
          label: `Histograms of the scores of the negatives and the positives; threshold line at ${fmtG(st.t, 4)}.`,
          vlines: [{ x: tx }], legend: [["negatives", COLORS[1]], ["positives", COLORS[0]]] }),
        groupedBars({ title: "bias and prevalence", groups: ["negative", "positive"], ylim: [0, N],
          label: `Bias ${b[0]} and ${b[1]}, prevalence ${p[0]} and ${p[1]} of negative and positive.`,
          series: [{ name: "bias (predicted)", values: b, color: COLORS[3] },
                   { name: "prevalence (true)", values: p, color: COLORS[4] }] }));
    }
    refresh();
    return { state };
  }

  // --- 9. cost curve ---------------------------------------------------------------------
  // As clfbook.widgets.costs: the slider's stops carry the library's PC(+); the cheapest
  // line is the first of least FPR (1 - PC) + FNR PC (cheapest_point).
  // The line from (0, a) to (1, b), cut where it leaves the chart's top at y = top.
  function cut(a, b, top, color) {
    const at = (y) => (y - a) / (b - a);
    const x0 = a > top ? at(top) : 0, x1 = b > top ? at(top) : 1;
    return { xs: [x0, x1], ys: [a + (b - a) * x0, a + (b - a) * x1], color };
  }
  function costs(root, spec) {
    const f = frame(root, spec), L = spec.lines;
    const fpr = L.map((l) => l[0]), tpr = L.map((l) => 1 - l[1]);
    let i = spec.start;
    const s = slider("cost ratio", spec.exponents.length - 1, i, (j) => { i = j; refresh(); },
      (j) => `${fmtG(spec.ratios[j], 3)} : 1`);
    f.controls.append(s.node);
    const state = () => {
      const pc = spec.pcs[i];
      let k = 0, best = Infinity;
      L.forEach((l, j) => {
        const nec = l[0] * (1 - pc) + l[1] * pc;
        if (nec < best) { best = nec; k = j; }
      });
      return { i, ratio: spec.ratios[i], pc, k, threshold: k === 0 ? Infinity : spec.thresholds[k - 1],
               fpr: fpr[k], tpr: tpr[k], nec: best, trivial: Math.min(pc, 1 - pc) };
    };
    function refresh() {
      const st = state(), t = Number.isFinite(st.threshold) ? fmtG(st.threshold, 4) : "∞ (treat none)";
      f.live.textContent = `Cost ratio ${fmtG(st.ratio, 4)}, PC(+) ${fmt(st.pc)}: the cheapest threshold ` +
        `${t}, false positive rate ${fmt(st.fpr)}, true positive rate ${fmt(st.tpr)}, cost ${fmt(st.nec)}.`;
      const c = (text, key) => ({ text, key });
      replace(f.readout, table(["quantity", "value"], [
        ["cost ratio C(FN) / C(FP)", c(fmtG(st.ratio, 4), "ratio")],
        ["probability cost PC(+)", c(fmt(st.pc), "pc")],
        ["cheapest threshold (score ≥ t)", c(t, "threshold")],
        ["false positive rate", c(fmt(st.fpr), "fpr")],
        ["true positive rate", c(fmt(st.tpr), "tpr")],
        ["normalized expected cost", c(fmt(st.nec), "nec")],
        ["best trivial classifier", c(fmt(st.trivial), "trivial")]], `prior p(+) = ${spec.prior.toFixed(3)}`));
      const a = L[st.k][0], b = L[st.k][1], pc = st.pc;
      // the line of equal cost through the point, slope (1 - PC) / PC, cut to the unit square
      const slope = (1 - pc) / pc, x0 = Math.max(0, st.fpr - st.tpr / slope);
      const x1 = Math.min(1, st.fpr + (1 - st.tpr) / slope), yOf = (x) => st.tpr + slope * (x - st.fpr);
      const iso = pc > 0 ? { xs: [x0, x1], ys: [yOf(x0), yOf(x1)] } : { xs: [st.fpr, st.fpr], ys: [0, 1] };
      replace(f.figures,
        chart({ title: "cost curve: the cheapest line at PC(+)", xlim: [0, 1], ylim: [0, 0.55],
          xlabel: "probability cost PC(+)",
          label: `Cost curve: the lower envelope of the ROC points' cost lines (area ${fmt(spec.area)}) and the ` +
            `two trivial classifiers; at PC(+) ${fmt(pc)} the cheapest line runs from ${fmt(a)} to ${fmt(b)}, cost ${fmt(st.nec)}.`,
          lines: [{ xs: [0, 0.55], ys: [0, 0.55], color: COLORS[0], dash: "5 3" },  // cut at the top
                  { xs: [0.45, 1], ys: [0.55, 0], color: COLORS[0], dash: "2 3" },
                  { xs: spec.grid, ys: spec.envelope, color: COLORS[4] },
                  cut(a, b, 0.55, COLORS[5])],
          vlines: [{ x: pc }], points: [{ x: pc, y: st.nec, color: COLORS[5] }],
          legend: [["always negative / positive", COLORS[0], true], ["lower envelope", COLORS[4]],
                   ["the cheapest ROC point's line", COLORS[5]]] }),
        chart({ title: "ROC: the same operating point", xlim: [0, 1], ylim: [0, 1], xlabel: "false positive rate",
          label: `ROC curve; the cheapest point at false positive rate ${fmt(st.fpr)}, true positive rate ` +
            `${fmt(st.tpr)}, with the dashed line of equal cost through it.`,
          lines: [{ xs: fpr, ys: tpr, color: COLORS[3] }, { xs: [0, 1], ys: [0, 1], color: COLORS[6], dash: "2 3" },
                  { xs: iso.xs, ys: iso.ys, color: COLORS[5], dash: "5 3" }],
          points: [{ x: st.fpr, y: st.tpr, color: COLORS[5] }],
          legend: [["ROC curve", COLORS[3]], ["random guessing", COLORS[6], true],
                   ["equal cost through the point", COLORS[5], true]] }));
    }
    refresh();
    return { state };
  }

  // --- 10. from the problem to a plan ------------------------------------------------------
  // Python's float repr (1.0, 0.05, 1e-05, 1.5e+16): the shortest digits, as JavaScript's,
  // in Python's layout.
  function pyFloat(x) {
    if (Object.is(x, -0)) return "-0.0";
    if (x === 0) return "0.0";
    const [mant, exp] = x.toExponential().split("e"), e = Number(exp);
    if (e < -4 || e >= 16) return `${mant}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
    const s = String(x);
    return s.includes(".") ? s : `${s}.0`;
  }
  // json.dumps(value, indent=2) of a plan (every number in a plan is a float; non-ASCII
  // escaped as Python's ensure_ascii does).
  const pyStr = (s) => JSON.stringify(s).replace(/[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  function pyJSON(v, pad = "") {
    const inner = `${pad}  `;
    if (Array.isArray(v)) {
      return v.length ? `[\n${v.map((x) => inner + pyJSON(x, inner)).join(",\n")}\n${pad}]` : "[]";
    }
    if (v !== null && typeof v === "object") {
      const keys = Object.keys(v);
      return keys.length
        ? `{\n${keys.map((k) => `${inner}${pyStr(k)}: ${pyJSON(v[k], inner)}`).join(",\n")}\n${pad}}`
        : "{}";
    }
    if (typeof v === "string") return pyStr(v);
    if (typeof v === "number") return pyFloat(v);
    return JSON.stringify(v);
  }

  // The pool and its plan come from the library's table of every combination of answers
  // (clfbook.widgets._page_specs.problem_spec); the page only reads the reader's costs and
  // prevalence, as clfbook.widgets.problem.parse_costs and parse_prevalence do.
  function problem(root, spec) {
    const f = frame(root, spec), answers = { ...spec.start }, NUMBER = new RegExp(`^(?:${spec.number})$`);
    const number = (text, what) => {
      if (!NUMBER.test(text)) throw new Error(`${what} must be a number such as 0.5, not \u201c${text}\u201d`);
      const v = Number(text);
      if (!Number.isFinite(v)) throw new Error(`${what} must be a finite number, not \u201c${text}\u201d`);
      return v;
    };
    const parsePrevalence = (text) => {
      const v = number(text.trim(), "the deployment prevalence");
      if (!(v > 0 && v < 1)) throw new Error(`the deployment prevalence must lie strictly between 0 and 1, not ${pyFloat(v)}`);
      return v;
    };
    const parseCosts = (text) => {
      const rows = text.split(/[;\n]/).map((r) => r.trim()).filter(Boolean);
      const m = rows.map((r) => r.split(/[,\s]+/).filter(Boolean).map((x) => number(x, "a cost")));
      if (m.length < 2 || m.some((r) => r.length !== m.length)) {
        throw new Error("the costs must be a square matrix of at least 2 x 2 (rows = predicted, columns = " +
          `true; rows separated by ;); got rows of [${m.map((r) => r.length).join(", ")}] numbers`);
      }
      if (m.some((r) => r.some((x) => x < 0))) throw new Error("a cost must not be negative");
      return m;
    };
    for (const [key, question, options] of spec.questions) {
      const box = el("fieldset", { class: "clf-fieldset clf-question" }, [el("legend", { text: question })]);
      for (const [value, words] of options) {
        const input = el("input", { type: "radio", name: `${root.id}-${key}`, value });
        input.checked = answers[key] === value;
        input.addEventListener("change", () => { if (input.checked) pick(key, value); });
        box.append(el("label", { class: "clf-choice" }, [input, ` ${words}`]));
      }
      f.controls.append(box);
    }
    const prevalence = el("input", { type: "text", inputmode: "decimal", size: 8, value: spec.prevalence });
    const costs = el("input", { type: "text", size: 16, value: spec.costs });
    const prevalenceNode = labelled("deployment prevalence (positive class)", prevalence);
    const costsNode = labelled("costs (rows = predicted, columns = true, rows separated by ;)", costs);
    prevalence.addEventListener("input", () => refresh());
    costs.addEventListener("input", () => refresh());
    f.controls.append(prevalenceNode, costsNode);
    const planText = el("pre", { class: "clf-plan", tabindex: "0", "data-key": "plan",
                                 "aria-label": "the plan file, plan.json" });
    const copy = el("button", { type: "button", text: "Copy the plan" });
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(planText.textContent);
        f.status("The plan is copied: save it as plan.json.");
      } catch (err) {  // no clipboard (an insecure page): the reader selects the text
        window.getSelection().selectAllChildren(planText);
        f.status("Copying is not allowed here: the plan is selected, copy it by hand.");
      }
    });
    // Two panes below the questions (not figures: they are text, and the questions take
    // the explorer's whole width above them; explorers.css lays them side by side).
    const poolView = el("section", { class: "clf-pane", "aria-label": "the pool of metrics" });
    f.figures.append(poolView, el("section", { class: "clf-pane", "aria-label": "the plan" }, [
      el("p", { class: "clf-caption", text: "The plan, for python -m clfmetrics report FILE --truth ... --plan plan.json" }),
      planText, copy]));
    let problemText = "";
    function pick(key, value) {
      if (key === "classes") {  // the starting matrix follows the classes; the reader's stays
        const other = spec.default_costs[value === "two" ? "more" : "two"];
        if (costs.value === other) costs.value = spec.default_costs[value];
      }
      answers[key] = value;
      refresh();
    }
    const combination = () => spec.answers[spec.questions.map(([key]) => answers[key]).join("|")];
    function plan(c) {
      const pool = c.pool.map((k) => spec.entries[k]), out = {};
      const values = {
        metrics: () => pool.map((e) => e.metric),
        answers: () => Object.fromEntries(spec.questions.map(([key]) => [key, answers[key]])),
        reasons: () => Object.fromEntries(pool.map((e) => [e.metric, e.reason])),
        thresholds: () => c.thresholds,
        costs: () => parseCosts(costs.value),
        deployment_prevalence: () => parsePrevalence(prevalence.value),
      };
      for (const key of c.plan) out[key] = values[key]();
      return out;
    }
    const item = (e, prefix) => {
      const pit = e.pitfall && spec.pitfalls[e.pitfall];
      return el("li", { "data-key": `${prefix}:${e.metric}` }, [
        el("code", { text: e.metric }), `: ${e.reason}. `,
        pit && el("span", {}, ["Pitfall: ", el("a", { href: pit.href, title: pit.section, text: pit.what })]),
      ]);
    };
    // A list of more than three metrics shows two (each takes a few lines) and folds the rest.
    const SHOWN = 2;
    function list(entries, prefix, noun) {
      const items = entries.map((e) => item(e, prefix)), ul = el("ul", { class: "clf-pool" });
      const fold = items.length > SHOWN + 1;
      ul.append(...(fold ? items.slice(0, SHOWN) : items));
      if (!fold) return ul;
      const rest = el("ul", { class: "clf-pool clf-rest" }, items.slice(SHOWN));
      rest.hidden = true;
      const more = `${items.length - SHOWN} more ${noun}`;
      const button = el("button", { type: "button", class: "clf-more", "aria-expanded": "false",
                                    "data-fold": prefix, text: `Show ${more}` });
      button.addEventListener("click", () => {
        const open = button.getAttribute("aria-expanded") !== "true";
        button.setAttribute("aria-expanded", String(open));
        button.textContent = open ? `Hide the ${more}` : `Show ${more}`;
        rest.hidden = !open;
      });
      return el("div", { class: "clf-folded" }, [ul, rest, button]);
    }
    function refresh() {
      const c = combination();
      prevalenceNode.hidden = !c.plan.includes("deployment_prevalence");
      costsNode.hidden = !c.plan.includes("costs");
      try {
        planText.textContent = `${pyJSON(plan(c))}\n`;
        problemText = "";
      } catch (err) {
        planText.textContent = "";
        problemText = err.message;
      }
      f.status(problemText);
      copy.disabled = !planText.textContent;
      const pool = c.pool.map((k) => spec.entries[k]), out = c.left_out.map((k) => spec.entries[k]);
      const required = c.required.map((code) => `${code} (${spec.properties[code]})`).join(", ");
      f.live.textContent = `The pool: ${pool.map((e) => e.metric).join(", ")}`;
      replace(f.readout, el("p", { class: "clf-caption", "data-key": "required",
                                   text: `Required of a metric of the matrix: ${required}` }));
      replace(poolView,
        el("p", { class: "clf-caption", text: `The pool: ${pool.length} metrics, each with the reason it is there` }),
        list(pool, "pool", "metrics"),
        c.notes.length ? el("ul", { class: "clf-note", "data-key": "notes" },
          c.notes.map((k) => el("li", { text: spec.notes[k] }))) : null,
        el("details", { class: "clf-note-fold", "data-fold": "left-out" }, [
          el("summary", { text: `${out.length} metrics of the table left out` }), list(out, "out", "metrics")]));
    }
    refresh();
    return {
      state: () => {
        const c = combination();
        return { answers: { ...answers }, required: c.required, plan: planText.textContent, status: problemText,
                 pool: c.pool.map((k) => spec.entries[k].metric), left_out: c.left_out.map((k) => spec.entries[k].metric),
                 notes: c.notes.map((k) => spec.notes[k]) };
      },
    };
  }

  // --- 11. judge ---------------------------------------------------------------------------
  // As clfbook.widgets.judge: the judge's expected agreement table (shares; rows = the judge,
  // columns = the people), its coefficients as the library's formulas on it (kappa from the
  // port; Scott's pi, PABAK and Gwet's AC1 as metrics/_agreement.py), and the two prevalence
  // estimates with their delta-method intervals, z from the spec (the library's NormalDist).
  function judgeAgreement(t, sp, q) {
    const m = [[sp * (1 - q), (1 - t) * q], [(1 - sp) * (1 - q), t * q]];
    const { b, p, c } = CM().margins(m), total = b[0] + b[1], correct = c[0] + c[1];
    const a = [b[0] + p[0], b[1] + p[1]], s2 = 2 * total;
    const den = a[0] * (s2 - a[0]) + a[1] * (s2 - a[1]);
    const pi = a.map((x) => x / s2), chance = (2 * (pi[0] * (1 - pi[0]) + pi[1] * (1 - pi[1]))) / 2;
    const observed = correct / total;
    return { matrix: m, accuracy: CM().accuracy(m), kappa: CM().METRICS.kappa(m, 0),
             scott_pi: den > 0 ? (2 * s2 * correct - (a[0] * a[0] + a[1] * a[1])) / den : 0,
             pabak: (2 * correct / total - 1) / 1, gwet_ac1: (observed - chance) / (1 - chance) };
  }
  function judgePrevalence(t, sp, q, n, N, z) {
    const f = 1 - sp, j = t - f, b = f + j * q;
    const cut = (c, se) => [Math.max(0, c - z * se), Math.min(1, c + z * se)];
    const [ccLow, ccHigh] = cut(b, Math.sqrt((b * (1 - b)) / N));
    const out = { prevalence: q, flagged: b, cc_bias: b - q, cc_low: ccLow, cc_high: ccHigh,
                  cc_covers: ccLow <= q && q <= ccHigh, youden: j, z };
    if (!(j > 0)) {
      return { ...out, adjusted: NaN, adjusted_bias: NaN, adjusted_low: NaN, adjusted_high: NaN,
               adjusted_covers: false };
    }
    const v = ((b * (1 - b)) / N + (q * q * t * (1 - t)) / (n * q) +
               ((1 - q) ** 2 * f * (1 - f)) / (n * (1 - q))) / (j * j);
    const adjusted = (b - f) / j, [low, high] = cut(adjusted, Math.sqrt(v));
    return { ...out, adjusted, adjusted_bias: adjusted - q, adjusted_low: low, adjusted_high: high,
             adjusted_covers: low <= q && q <= high };
  }
  function judge(root, spec) {
    const f = frame(root, spec), st = spec.stops, idx = { ...spec.start };
    const [neg, pos] = spec.names, pct = `${Math.round(spec.level * 100)} %`;
    const labels = { sensitivity: "sensitivity T", specificity: "specificity",
                     prevalence: "prevalence q", labels: "hand labels n" };
    for (const key of Object.keys(labels)) {
      const s = slider(labels[key], st[key].length - 1, idx[key], (i) => { idx[key] = i; refresh(); },
        (i) => (key === "labels" ? String(st[key][i]) : st[key][i].toFixed(2)));
      s.input.classList.add("clf-wide");
      f.controls.append(s.node);
    }
    const values = (t, sp, q, n) => ({ agreement: judgeAgreement(t, sp, q),
                                       estimates: judgePrevalence(t, sp, q, n, spec.deployment, spec.z) });
    const now = () => Object.fromEntries(Object.keys(labels).map((k) => [k, st[k][idx[k]]]));
    const state = () => {
      const x = now();
      return { ...x, ...values(x.sensitivity, x.specificity, x.prevalence, x.labels) };
    };
    const span = (lo, hi) => (Number.isNaN(lo) ? "undefined" : `[${fmt(lo)}, ${fmt(hi)}]`);
    const shown = (x) => (Number.isNaN(x) ? "undefined" : fmt(x));
    function refresh() {
      const s = state(), a = s.agreement, e = s.estimates, m = a.matrix, c = (text, key) => ({ text, key });
      f.live.textContent = `Sensitivity ${s.sensitivity.toFixed(2)}, specificity ${s.specificity.toFixed(2)}, ` +
        `prevalence ${s.prevalence.toFixed(2)}: kappa ${fmt(a.kappa)}, PABAK ${fmt(a.pabak)}, AC1 ${fmt(a.gwet_ac1)}; ` +
        `classify and count ${fmt(e.flagged)}, adjusted ${fmt(e.adjusted)} ${span(e.adjusted_low, e.adjusted_high)}.`;
      replace(f.readout,
        table(["judge \\ people", neg, pos], [[neg, c(fmt(m[0][0]), "m:0,0"), c(fmt(m[0][1]), "m:0,1")],
          [pos, c(fmt(m[1][0]), "m:1,0"), c(fmt(m[1][1]), "m:1,1")]], "expected agreement table (shares of the items)"),
        table(["coefficient", "value"], Object.entries(spec.coefficients).map(([k, label]) => [label, c(fmt(a[k]), k)]),
          `agreement at prevalence ${s.prevalence.toFixed(2)}`),
        el("p", { class: "clf-caption", text: `True prevalence q = ${s.prevalence.toFixed(2)}; ${s.labels} hand ` +
          `labels, ${spec.deployment} deployment items; J = T − F = ${fmt(e.youden)}.` }),
        table(["estimate of q", "classify and count", "adjusted (Rogan–Gladen)"], [
          ...[["estimate", "flagged", "adjusted"], ["bias", "cc_bias", "adjusted_bias"],
              [`${pct} low`, "cc_low", "adjusted_low"], [`${pct} high`, "cc_high", "adjusted_high"]]
            .map(([label, cc, adj]) => [label, c(shown(e[cc]), cc), c(shown(e[adj]), adj)]),
          ["covers q", { ...mark(e.cc_covers), key: "cc_covers" }, { ...mark(e.adjusted_covers), key: "adjusted_covers" }]]),
        el("details", { class: "clf-note-fold", "data-fold": "judge-note" }, [
          el("summary", { text: "What these intervals assume" }), el("p", { class: "clf-note", text: spec.note })]));
      const g = spec.grid, curves = g.map((q) => values(s.sensitivity, s.specificity, q, s.labels));
      const lines = [["accuracy", "accuracy", COLORS[6]], ["pabak", "PABAK", COLORS[2], "2 3"],
                     ["gwet_ac1", "Gwet's AC1", COLORS[0], "6 2 1 2"], ["kappa", "Cohen's κ", COLORS[3], "5 3"]];
      const ce = curves.map((v) => v.estimates), adjusted = Number.isFinite(e.adjusted);
      replace(f.figures,
        chart({ title: "agreement against the prevalence", xlim: [0, 1], ylim: [-0.05, 1.02],
          xlabel: `prevalence of ${pos}`,
          label: `Accuracy, PABAK, Gwet's AC1 and Cohen's kappa of this judge at every prevalence; at ` +
            `${s.prevalence.toFixed(2)} they are ${fmt(a.accuracy)}, ${fmt(a.pabak)}, ${fmt(a.gwet_ac1)} and ` +
            `${fmt(a.kappa)}. Kappa falls towards 0 at both ends; PABAK stays flat.`,
          lines: lines.map(([key, , color, dash]) => ({ xs: g, ys: curves.map((v) => v.agreement[key]), color, dash })),
          vlines: [{ x: s.prevalence }],
          points: lines.map(([key, , color]) => ({ x: s.prevalence, y: a[key], color })),
          legend: lines.map(([, name, color, dash]) => [name, color, Boolean(dash)]) }),
        chart({ title: "classify and count against the adjusted estimate", xlim: [0, 1], ylim: [0, 1],
          xlabel: `true prevalence of ${pos}`,
          label: `Estimated against true prevalence: classify and count is the line ${fmt(ce[0].flagged)} at ` +
            `${g[0].toFixed(2)} to ${fmt(ce[g.length - 1].flagged)} at ${g[g.length - 1].toFixed(2)}, crossing the ` +
            `truth once; the adjusted estimate is the truth itself` +
            (adjusted ? `, its ${pct} interval a band ${fmt(e.adjusted_high - e.adjusted_low)} wide at ${s.prevalence.toFixed(2)}.`
              : ", undefined here (T = F)."),
          bands: [{ xs: g, low: ce.map((v) => v.cc_low), high: ce.map((v) => v.cc_high), color: COLORS[3] },
                  ...(adjusted ? [{ xs: g, low: ce.map((v) => v.adjusted_low), high: ce.map((v) => v.adjusted_high),
                                    color: COLORS[1] }] : [])],
          lines: [{ xs: [0, 1], ys: [0, 1], color: COLORS[6], dash: "2 3" },
                  { xs: g, ys: ce.map((v) => v.flagged), color: COLORS[3], dash: "5 3" },
                  { xs: g, ys: ce.map((v) => v.adjusted), color: COLORS[4] }],
          vlines: [{ x: s.prevalence }],
          points: [{ x: s.prevalence, y: e.flagged, color: COLORS[3], square: true },
                   { x: s.prevalence, y: e.adjusted, color: COLORS[4] }],
          legend: [["the truth", COLORS[6], true], ["classify and count", COLORS[3], true],
                   ["adjusted (Rogan–Gladen)", COLORS[4]], [`adjusted ${pct} interval`, COLORS[1], false, true]] }));
    }
    refresh();
    return { state, values };
  }


  const KINDS = { problem, confusion, macro_f1: macroF1, nonmonotonicity, paradox, prevalence, chance, chooser, threshold, costs };
  KINDS.judge = judge;

  function init() {
    const t0 = performance.now();
    window.clfExplorers = window.clfExplorers || {};
    for (const root of document.querySelectorAll(".clf-page-explorer:not(.clf-ready)")) {
      const spec = JSON.parse(root.querySelector("script.clf-spec").textContent);
      window.clfExplorers[root.id] = KINDS[spec.kind](root, spec);
    }
    // benchmarks/bench_pages.py: time to interactive, and the explorers' own share of it
    window.clfPage.readyAt = performance.now();
    window.clfPage.initMs = window.clfPage.readyAt - t0;
  }

  window.clfPage = { fmt, fmtG, pyFloat, pyJSON, skewErrors, errorSkew, propositions, niceTicks, init };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();

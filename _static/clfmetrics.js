/* clfmetrics in the browser: a small port of the library's formulas for the page explorers.
 *
 * Every function mirrors one of src/clfmetrics (classwise.py, averages.py, agreement.py)
 * step by step, so the numbers agree with the library to a few units in the 16th digit;
 * tests/test_page_explorers.py checks that on random and degenerate matrices in Chromium.
 * The intervals mirror _binomial.py (exact) and jackknife.py (every other metric);
 * tests/test_page_intervals.py checks them.
 * Convention: m[i][j] = mass predicted as class i whose true class is j (rows = predicted,
 * columns = true). `fill` is the value of an undefined ratio: 0, 1 or NaN (zero_division).
 */
(function () {
  "use strict";

  function margins(m) {
    const n = m.length;
    const b = new Array(n).fill(0), p = new Array(n).fill(0), c = new Array(n);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        b[i] += m[i][j];
        p[j] += m[i][j];
      }
      c[i] = m[i][i];
    }
    return { b, p, c };
  }

  const sum = (v) => v.reduce((a, x) => a + x, 0);
  const dot = (u, v) => u.reduce((a, x, k) => a + x * v[k], 0);

  function ratio(num, den, fill) {
    return num.map((x, k) => (den[k] > 0 ? x / den[k] : fill));
  }

  // H(p, r) = 2pr / (p + r), H(0, 0) = 0, NaN absorbing (classwise._harmonic).
  function harmonic(p, r) {
    const s = p + r;
    return s === 0 ? 0 : (p * r * 2) / s;
  }

  function f1OfMargins(b, p, c, fill) {
    if (Math.min(...b) > 0 && Math.min(...p) > 0) {
      return c.map((x, k) => x / ((b[k] + p[k]) * 0.5));
    }
    const P = ratio(c, b, fill), R = ratio(c, p, fill);
    return P.map((x, k) => harmonic(x, R[k]));
  }

  function classwise(m, fill) {
    const { b, p, c } = margins(m);
    return {
      bias: b,
      prevalence: p,
      correct: c,
      precision: ratio(c, b, fill),
      recall: ratio(c, p, fill),
      f1: f1OfMargins(b, p, c, fill),
    };
  }

  function accuracy(m) {
    const { b, c } = margins(m);
    return sum(c) / sum(b);
  }

  function microF1(m) {
    const a = accuracy(m);
    return harmonic(a, a);
  }

  function deltaF1(m, fill) {
    const { b, p: prev, c } = margins(m);
    const n = m.length;
    const p = ratio(c, b, fill), r = ratio(c, prev, fill);
    const s = p.map((x, k) => x + r[k]);
    const w = s.map((x) => (Number.isNaN(x) ? NaN : x > 0 ? 1 / x : 0));
    const pw = p.map((x, k) => x * w[k]), rw = r.map((x, k) => x * w[k]);
    const A = dot(p, pw), B = dot(r, rw), C = dot(p, rw);
    const d = A * B - C * C;
    const pairSum = 2 * (Number.isNaN(d) ? NaN : Math.max(d, 0));
    const sigma = sum(s);
    if (Number.isNaN(sigma)) return NaN;
    return sigma > 0 ? pairSum / (n * sigma) : 0;
  }

  function weightedF1(m, fill) {
    const { b, p, c } = margins(m);
    const f = f1OfMargins(b, p, c, fill).map((x, k) =>
      Number.isNaN(fill) && p[k] === 0 ? 0 : x,
    );
    return dot(p, f) / sum(p);
  }

  // The four sums of agreement._parts: numerator c.o - x.y and the denominators
  // p.q (kappa), p.q_p and b.q (MCC), each a sum of non-negative products.
  function agreementParts(m) {
    const n = m.length;
    const { b, p, c } = margins(m);
    const s = sum(b);
    let co = 0, xy = 0, pq = 0, pqp = 0, bq = 0;
    for (let k = 0; k < n; k++) {
      const x = p[k] - c[k], y = b[k] - c[k];
      const q = s - b[k], qp = s - p[k];
      const o = q - x;
      co += c[k] * o;
      xy += x * y;
      pq += p[k] * q;
      pqp += p[k] * qp;
      bq += b[k] * q;
    }
    return { num: co - xy, pq, pqp, bq };
  }

  function kappa(m, fill) {
    const { num, pq } = agreementParts(m);
    return pq > 0 ? num / pq : fill;
  }

  function mcc(m, fill) {
    const { num, pqp, bq } = agreementParts(m);
    if (!(pqp > 0 && bq > 0)) return fill;
    return (num / pqp) * Math.sqrt(pqp / bq);
  }

  function geometricMacroRecall(m, fill) {
    const r = classwise(m, fill).recall;
    return Math.pow(r.reduce((a, x) => a * x, 1), 1 / r.length);
  }

  function harmonicMacroRecall(m, fill) {
    const r = classwise(m, fill).recall;
    const inv = r.map((x) => (Number.isNaN(x) ? NaN : x > 0 ? 1 / x : Infinity));
    return r.length / sum(inv);
  }

  const mean = (v) => sum(v) / v.length;

  // The keys and order of clfmetrics.METRICS.
  const METRICS = {
    accuracy: (m) => accuracy(m),
    macro_recall: (m, fill) => mean(classwise(m, fill).recall),
    macro_precision: (m, fill) => mean(classwise(m, fill).precision),
    macro_f1: (m, fill) => mean(classwise(m, fill).f1),
    f1_of_averages: (m, fill) => {
      const cw = classwise(m, fill);
      return harmonic(mean(cw.precision), mean(cw.recall));
    },
    weighted_f1: weightedF1,
    kappa,
    mcc,
    geometric_macro_recall: geometricMacroRecall,
    harmonic_macro_recall: harmonicMacroRecall,
    micro_precision: (m) => accuracy(m),
    micro_recall: (m) => accuracy(m),
    micro_f1: (m) => microF1(m),
    delta_f1: deltaF1,
  };

  /** Every metric of METRICS for m with zero_division `fill` (default 0). */
  function metrics(m, fill = 0) {
    const out = {};
    for (const [name, fn] of Object.entries(METRICS)) out[name] = fn(m, fill);
    return out;
  }


  // --- exact (Clopper-Pearson) interval of k successes in n trials, as _binomial.py ------
  // The ends are beta quantiles: low = B^-1(a/2; k, n-k+1), high = B^-1(1-a/2; k+1, n-k),
  // with the regularized incomplete beta from its continued fraction (modified Lentz) and
  // the quantile by bisection to the last float. k = 0 or k = n: the closed forms.
  const LANCZOS = [0.99999999999980993, 676.5203681218851, -1259.1392167224028,
    771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
    9.9843695780195716e-6, 1.5056327351493116e-7];

  function lgamma(x) {
    if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lgamma(1 - x);
    x -= 1;
    let a = LANCZOS[0];
    const t = x + 7.5;
    for (let i = 1; i < 9; i++) a += LANCZOS[i] / (x + i);
    return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
  }

  function betaFraction(x, a, b) {
    const tiny = 1e-300;
    let c = 1, d = 1 - ((a + b) * x) / (a + 1);
    d = 1 / (Math.abs(d) < tiny ? tiny : d);
    let h = d;
    for (let m = 1; m <= 100000; m++) {
      const m2 = 2 * m;
      for (const aa of [(m * (b - m) * x) / ((a + m2 - 1) * (a + m2)),
                        (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1))]) {
        d = 1 + aa * d;
        d = 1 / (Math.abs(d) < tiny ? tiny : d);
        c = 1 + aa / c;
        if (Math.abs(c) < tiny) c = tiny;
        h *= d * c;
        if (aa < 0 && Math.abs(d * c - 1) < 1e-15) return h;
      }
    }
    return h;
  }

  /** Regularized incomplete beta I_x(a, b). */
  function ibeta(x, a, b) {
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    const front = Math.exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * Math.log(x) +
                           b * Math.log1p(-x));
    if (x < (a + 1) / (a + b + 2)) return (front * betaFraction(x, a, b)) / a;
    return 1 - (front * betaFraction(1 - x, b, a)) / b;
  }

  // The quantile in [lo, hi] (a bracket that holds it, as _binomial.py's ten standard errors).
  function betaQuantile(q, a, b, lo = 0, hi = 1) {
    if (ibeta(lo, a, b) > q) lo = 0;
    if (ibeta(hi, a, b) < q) hi = 1;
    for (let i = 0; i < 200; i++) {
      const mid = (lo + hi) / 2;
      if (mid <= lo || mid >= hi) break;
      if (ibeta(mid, a, b) < q) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  }

  /** [low, high] of k successes in n trials at `level`; [0, 1] when n = 0. */
  function clopperPearson(k, n, level = 0.95) {
    if (n === 0) return [0, 1];
    const alpha = 1 - level;
    if (k === 0) return [0, 1 - Math.pow(alpha / 2, 1 / n)];
    if (k === n) return [Math.pow(alpha / 2, 1 / n), 1];
    const share = k / n, reach = 10 * Math.sqrt((share * (1 - share)) / n) + 10 / n;
    const lo = Math.max(share - reach, 0), hi = Math.min(share + reach, 1);
    return [betaQuantile(alpha / 2, k, n - k + 1, lo, share),
            betaQuantile(1 - alpha / 2, k + 1, n - k, share, hi)];
  }

  /** Exact intervals of the readout's proportions: accuracy, and per class P and R. */
  function exactIntervals(m, level = 0.95) {
    const { b, p, c } = margins(m), N = sum(p);
    return {
      accuracy: clopperPearson(sum(c), N, level),
      precision: c.map((x, i) => clopperPearson(x, b[i], level)),
      recall: c.map((x, i) => clopperPearson(x, p[i], level)),
    };
  }


  // --- large-sample interval of every other metric, as clfmetrics.inference -------------
  // z = Phi^-1(p): Wichura's AS241, as Python's statistics.NormalDist.inv_cdf.
  const horner = (cs, r) => cs.reduce((a, c) => a * r + c, 0);
  const AS241 = {
    a: [2.5090809287301226727e+3, 3.3430575583588128105e+4, 6.7265770927008700853e+4,
        4.5921953931549871457e+4, 1.3731693765509461125e+4, 1.9715909503065514427e+3,
        1.3314166789178437745e+2, 3.3871328727963666080e+0],
    b: [5.2264952788528545610e+3, 2.8729085735721942674e+4, 3.9307895800092710610e+4,
        2.1213794301586595867e+4, 5.3941960214247511077e+3, 6.8718700749205790830e+2,
        4.2313330701600911252e+1, 1.0],
    c: [7.74545014278341407640e-4, 2.27238449892691845833e-2, 2.41780725177450611770e-1,
        1.27045825245236838258e+0, 3.64784832476320460504e+0, 5.76949722146069140550e+0,
        4.63033784615654529590e+0, 1.42343711074968357734e+0],
    d: [1.05075007164441684324e-9, 5.47593808499534494600e-4, 1.51986665636164571966e-2,
        1.48103976427480074590e-1, 6.89767334985100004550e-1, 1.67638483018380384940e+0,
        2.05319162663775882187e+0, 1.0],
    e: [2.01033439929228813265e-7, 2.71155556874348757815e-5, 1.24266094738807843860e-3,
        2.65321895265761230930e-2, 2.96560571828504891230e-1, 1.78482653991729133580e+0,
        5.46378491116411436990e+0, 6.65790464350110377720e+0],
    f: [2.04426310338993978564e-15, 1.42151175831644588870e-7, 1.84631831751005468180e-5,
        7.86869131145613259100e-4, 1.48753612908506148525e-2, 1.36929880922735805310e-1,
        5.99832206555887937690e-1, 1.0],
  };

  function normalQuantile(p) {
    const q = p - 0.5;
    if (Math.abs(q) <= 0.425) {
      const r = 0.180625 - q * q;
      return (horner(AS241.a, r) * q) / horner(AS241.b, r);
    }
    let r = Math.sqrt(-Math.log(q <= 0 ? p : 1 - p)), x;
    if (r <= 5) {
      r -= 1.6;
      x = horner(AS241.c, r) / horner(AS241.d, r);
    } else {
      r -= 5;
      x = horner(AS241.e, r) / horner(AS241.f, r);
    }
    return q < 0 ? -x : x;
  }

  // Undefined: NaN, or a 0/0 that fill 0 hid (asked again with NaN), as _intervals.undefined_mask.
  const undefinedAt = (fn, m) => Number.isNaN(fn(m, 0)) || Number.isNaN(fn(m, NaN));

  /** [jackknife standard error, share of items whose removal leaves a 0/0] of a metric. */
  function jackknifeSE(m, name) {
    const fn = METRICS[name], n = m.length, observed = !undefinedAt(fn, m);
    const w = [], theta = [];
    let all = 0, lost = 0;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const count = m[i][j];
        if (!(count > 0)) continue;
        all += count;
        m[i][j] = count - 1;
        const t = fn(m, 0), gone = undefinedAt(fn, m);
        m[i][j] = count;
        if (gone) lost += count;
        if (gone && observed) continue;
        w.push(count);
        theta.push(t);
      }
    }
    const total = sum(w);
    if (total < 2) return [NaN, lost / all];
    const mean = dot(w, theta) / total;
    const spread = w.reduce((a, x, k) => a + x * (theta[k] - mean) ** 2, 0);
    return [Math.sqrt(Math.max(((total - 1) / total) * spread, 0)), lost / all];
  }

  const RANGES = { kappa: [-1, 1], mcc: [-1, 1] };
  const EXACT = new Set(["accuracy", "micro_precision", "micro_recall", "micro_f1"]);

  /** {name: [low, high, method]} for every metric, as clfbook.widgets.intervals.metric_intervals. */
  function metricIntervals(m, level = 0.95) {
    const { c, p } = margins(m), N = sum(p), exact = clopperPearson(sum(c), N, level);
    const z = normalQuantile((1 + level) / 2), out = {};
    for (const name of Object.keys(METRICS)) {
      if (EXACT.has(name)) {
        out[name] = [...exact, "exact"];
        continue;
      }
      if (N < 2) {
        out[name] = [NaN, NaN, "jackknife"];
        continue;
      }
      const est = METRICS[name](m, 0), [se] = jackknifeSE(m, name);
      const [lower, upper] = RANGES[name] || [0, 1];
      out[name] = [Math.max(est - z * se, lower), Math.min(est + z * se, upper), "jackknife"];
    }
    return out;
  }

  window.clfmetrics = { margins, classwise, harmonic, metrics, METRICS, accuracy, clopperPearson,
                        exactIntervals, normalQuantile, jackknifeSE, metricIntervals };
})();

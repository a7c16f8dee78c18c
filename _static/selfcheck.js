/* Quick self-checks (the {selfcheck} directive, _ext/selfcheck.py): grade on the page.
 *
 * Each <form class="clf-selfcheck"> carries its key in data attributes written at build
 * time: data-correct (the index of the right choice) or data-answer, data-tolerance and
 * data-digits (a number the library computed). The verdict goes to the form's
 * role="status" region; a right reply brings the explanation along (a copy of the
 * folded answer). No network, no framework.
 */
(function () {
  "use strict";

  // A reply such as "0.8", "0,8", "80%" or "4/5"; NaN when it is not a number.
  function parseReply(text) {
    let t = text.trim().replace(/\s+/g, "").replace(/\u2212/g, "-");
    if (!/\./.test(t)) t = t.replace(",", ".");
    let scale = 1;
    if (t.endsWith("%")) {
      scale = 0.01;
      t = t.slice(0, -1);
    }
    const number = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
    const parts = t.split("/");
    if (parts.length === 2 && number.test(parts[0]) && number.test(parts[1])) {
      return (Number(parts[0]) / Number(parts[1])) * scale;
    }
    return number.test(t) ? Number(t) * scale : NaN;
  }

  function grade(form) {
    const d = form.dataset;
    if (d.kind === "choice") {
      const picked = form.querySelector("input[type=radio]:checked");
      if (!picked) return { state: "invalid", text: "Choose one of the answers first." };
      return Number(picked.value) === Number(d.correct)
        ? { state: "correct" }
        : { state: "wrong", text: "Not quite: try another answer, or open Show the answer." };
    }
    const input = form.querySelector("input[type=text]");
    const reply = parseReply(input.value);
    if (!Number.isFinite(reply)) {
      return { state: "invalid", text: "Type a number, such as 0.25 (or 1/4, or 25%)." };
    }
    const off = Math.abs(reply - Number(d.answer));
    // the slack absorbs the binary rounding of decimals such as 0.1
    return off <= Number(d.tolerance) + 1e-9
      ? { state: "correct" }
      : {
          state: "wrong",
          text: `Not quite: ${input.value.trim()} is not the answer to ${d.digits} ` +
            "decimals. Try again, or open Show the answer.",
        };
  }

  function show(form, verdict) {
    const region = form.querySelector(".clf-sc-result");
    form.dataset.state = verdict.state;
    region.replaceChildren();
    const line = document.createElement("p");
    if (verdict.state === "correct") {
      const strong = document.createElement("strong");
      strong.textContent = "Correct.";
      line.append(strong);
      region.append(line);
      const explain = form.querySelector(".clf-sc-explain");
      if (explain) {
        const copy = explain.cloneNode(true);
        copy.removeAttribute("id");
        copy.querySelectorAll("[id]").forEach((n) => n.removeAttribute("id"));
        copy.className = "clf-sc-why";
        region.append(copy);
      }
    } else {
      line.textContent = verdict.text;
      region.append(line);
    }
  }

  function setUp(form) {
    if (form.dataset.ready) return;
    form.dataset.ready = "1";
    form.querySelector("button[type=submit]").hidden = false;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      show(form, grade(form));
    });
    // a new reply clears the old verdict, so the verdict always belongs to what is shown
    form.addEventListener("input", () => {
      delete form.dataset.state;
      form.querySelector(".clf-sc-result").replaceChildren();
    });
  }

  function setUpAll() {
    document.querySelectorAll("form.clf-selfcheck").forEach(setUp);
  }

  window.clfSelfCheck = { parseReply, grade };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUpAll);
  } else {
    setUpAll();
  }
})();

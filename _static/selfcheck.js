/* Quick self-checks (_ext/self_check.py): grade the reader's answer on the page.
 *
 * Each <div class="clf-self-check" data-check="{...}"> gets a radio group (multiple
 * choice) or a number box, a Check button and an aria-live verdict; the explanation,
 * folded in <details> for readers without JavaScript, opens after every check.
 */
(function () {
  "use strict";
  let uid = 0;

  function grade(key, value) {
    if (key.kind === "choice") return value === key.answer;
    const x = Number(String(value).trim().replace(",", "."));
    return String(value).trim() !== "" && Number.isFinite(x) &&
      Math.abs(x - key.answer) <= key.tolerance + 1e-12 * Math.abs(key.answer);
  }

  function build(root) {
    const key = JSON.parse(root.dataset.check), id = `clf-check-${++uid}`;
    const question = root.querySelector(".clf-question");
    const details = root.querySelector("details.clf-explanation");
    question.id = `${id}-q`;
    root.setAttribute("aria-labelledby", question.id);
    const form = document.createElement("form");
    form.className = "clf-check-form";
    let read;
    if (key.kind === "choice") {
      const group = document.createElement("div");
      group.setAttribute("role", "radiogroup");
      group.setAttribute("aria-labelledby", question.id);
      key.choices.forEach((choice, k) => {
        const input = Object.assign(document.createElement("input"),
          { type: "radio", name: id, value: choice, id: `${id}-${k}` });
        const label = Object.assign(document.createElement("label"), { htmlFor: input.id, textContent: choice });
        const row = document.createElement("div");
        row.append(input, " ", label);
        group.append(row);
      });
      form.append(group);
      read = () => (form.querySelector("input:checked") || {}).value;
    } else {
      const input = Object.assign(document.createElement("input"),
        { type: "text", inputMode: "decimal", id: `${id}-x`, autocomplete: "off" });
      const label = Object.assign(document.createElement("label"), { htmlFor: input.id, textContent: "Your answer " });
      form.append(label, input);
      read = () => input.value;
    }
    const button = Object.assign(document.createElement("button"), { type: "submit", textContent: "Check" });
    const verdict = Object.assign(document.createElement("p"), { className: "clf-verdict" });
    verdict.setAttribute("aria-live", "polite");
    form.append(" ", button);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const value = read();
      if (value === undefined || String(value).trim() === "") {
        verdict.textContent = "Choose or type an answer first.";
        root.dataset.result = "";
        return;
      }
      const right = grade(key, value);
      root.dataset.result = right ? "right" : "wrong";
      verdict.textContent = right ? "Right." : "Not quite. The explanation is below.";
      details.open = true;
    });
    question.after(form, verdict);
  }

  function init() {
    document.querySelectorAll(".clf-self-check:not([data-ready])").forEach((root) => {
      root.dataset.ready = "1";
      build(root);
    });
  }

  window.clfSelfCheck = { grade, init };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();

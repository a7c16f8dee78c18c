/* A display formula wider than its column scrolls sideways in its own box (book.css). A box
 * that scrolls must be reachable from the keyboard (WCAG 2.1.1; axe's
 * scrollable-region-focusable), so each such formula joins the tab order while it is wider
 * than its box and leaves it when it fits (a wider window, another font size): narrow
 * formulas are no tab stops. Nothing here typesets: the formulas come as MathML
 * (_ext/page_math.py); _ext/page_head.py keeps this file on pages with a display formula.
 */
(function () {
  "use strict";

  function markScrollingFormulas() {
    for (const math of document.querySelectorAll("div.math > math")) {
      if (math.scrollWidth > math.clientWidth) math.setAttribute("tabindex", "0");
      else math.removeAttribute("tabindex");
    }
  }

  // Deferred: the page is parsed; its math font may still change the widths.
  markScrollingFormulas();
  document.fonts.ready.then(markScrollingFormulas);
  let frame = 0;
  window.addEventListener("resize", () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(markScrollingFormulas);
  });
})();

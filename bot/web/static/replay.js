// The replay one step at a time, with First / Prev / Next / End; without this script every
// step is listed in order.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const steps = Array.from(document.querySelectorAll(".replay .step"));
  const nav = document.querySelector("nav.steps");
  if (!steps.length || !nav) return;
  const where = nav.querySelector(".where");
  const total = steps.length;
  let shown = 0;
  const show = (index) => {
    shown = Math.max(0, Math.min(total - 1, index));
    steps.forEach((step, i) => { step.hidden = i !== shown; });
    where.textContent = `${shown + 1} / ${total}`;
    nav.querySelector('[data-move="first"]').disabled = shown === 0;
    nav.querySelector('[data-move="prev"]').disabled = shown === 0;
    nav.querySelector('[data-move="next"]').disabled = shown === total - 1;
    nav.querySelector('[data-move="end"]').disabled = shown === total - 1;
  };
  const moves = { first: () => 0, prev: () => shown - 1, next: () => shown + 1, end: () => total - 1 };
  nav.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (button) show(moves[button.dataset.move]());
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight") show(shown + 1);
    if (event.key === "ArrowLeft") show(shown - 1);
  });
  nav.hidden = false;
  document.querySelector(".replay").classList.add("one-at-a-time");
  show(0);
});

// The accessible names of the board's move targets. The page names each
// target by its move's label; when the plugin drew text inside the target
// (a tile's name), the name must also contain that text, or a person using
// speech input cannot say what they see (WCAG 2.5.3, "label in name").

export function nameTargetsWithTheirText(board: Element): void {
  for (const target of Array.from(board.querySelectorAll("[role=button][aria-label]"))) {
    const shown = Array.from(target.querySelectorAll("text"), (text) => text.textContent ?? "").join(" ")
      .replace(/\s+/g, " ").trim(); // what is drawn, not a <title> tooltip
    const label = target.getAttribute("aria-label") ?? "";
    if (shown && !label.toLowerCase().includes(shown.toLowerCase())) target.setAttribute("aria-label", `${shown}: ${label}`);
  }
}

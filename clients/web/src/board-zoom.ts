// The board's size. On a wide screen the picture fits its frame whole (CSS);
// on a narrow or touch screen it is drawn at least large enough that each of
// its targets is a fingertip wide and each text readable, and the frame pans
// over it. A plugin draws one picture for every screen: only the page knows
// how wide it is shown, so the zoom is computed here, from the picture.

/** The smallest target a finger hits reliably, in CSS pixels. */
export const TARGET_PX = 32;
/** The smallest text people read on a phone, in CSS pixels. */
export const TEXT_PX = 10;
const SMALL_SCREEN = "(max-width: 800px), (pointer: coarse)";

/** The picture's user units per its own width and height (its viewBox, else its width and height). */
function pictureSize(svg: SVGSVGElement): { width: number; height: number } | null {
  const box = svg.viewBox.baseVal;
  if (box && box.width > 0 && box.height > 0) return { width: box.width, height: box.height };
  const width = Number.parseFloat(svg.getAttribute("width") ?? "");
  const height = Number.parseFloat(svg.getAttribute("height") ?? "");
  return width > 0 && height > 0 ? { width, height } : null;
}

/** The smallest target's shorter side and the smallest text, in the picture's units (Infinity: none). */
function smallest(svg: SVGSVGElement): { target: number; text: number } {
  let target = Infinity;
  for (const element of Array.from(svg.querySelectorAll<SVGGraphicsElement>(".move-target, [data-part]"))) {
    let box: DOMRect;
    try {
      box = element.getBBox();
    } catch {
      continue;  // not drawn (display none): a choice shown only later
    }
    const side = Math.min(box.width, box.height);
    if (side > 0) target = Math.min(target, side);
  }
  let text = Infinity;
  for (const element of Array.from(svg.querySelectorAll("text"))) {
    if (!element.textContent?.trim()) continue;
    const size = Number.parseFloat(getComputedStyle(element).fontSize);
    if (size > 0) text = Math.min(text, size);
  }
  return { target, text };
}

/**
 * Sizes `svg` inside `frame`: whole on a wide screen; on a small one, as
 * wide as the frame or larger when its targets or texts would be too small,
 * then the frame scrolls to the targets (the player's own area) when the
 * picture is larger than it. Returns the scale the picture is drawn at
 * (CSS pixels per user unit), 0 when it fits the frame.
 */
export function zoomBoard(frame: HTMLElement, svg: SVGSVGElement, scrollToTargets: boolean): number {
  const size = pictureSize(svg);
  frame.classList.remove("zoomed");
  svg.style.removeProperty("width");
  svg.style.removeProperty("height");
  if (!size || !window.matchMedia(SMALL_SCREEN).matches) return 0;
  const fit = frame.clientWidth / size.width;
  const { target, text } = smallest(svg);
  const scale = Math.max(fit, TARGET_PX / target, TEXT_PX / text);
  if (!Number.isFinite(scale) || scale <= fit * 1.001) return 0;
  // A hair above the minimum: rounding must not bring a target under it.
  const drawn = scale * 1.02;
  frame.classList.add("zoomed");
  svg.style.width = `${size.width * drawn}px`;
  svg.style.height = `${size.height * drawn}px`;
  if (scrollToTargets) showTargets(frame, svg);
  return drawn;
}

/** Scrolls the frame so that the targets (the player's area) are in view: their top left corner first. */
function showTargets(frame: HTMLElement, svg: SVGSVGElement): void {
  const targets = Array.from(svg.querySelectorAll(".move-target, .part-choice"))
    .map((element) => element.getBoundingClientRect()).filter((box) => box.width > 0);
  if (!targets.length) return;
  const origin = frame.getBoundingClientRect();
  const left = Math.min(...targets.map((box) => box.left));
  const top = Math.min(...targets.map((box) => box.top));
  const right = Math.max(...targets.map((box) => box.right));
  const bottom = Math.max(...targets.map((box) => box.bottom));
  // Centred when they fit in the frame, else their top left corner, with a margin.
  const x = right - left < frame.clientWidth ? (left + right) / 2 - frame.clientWidth / 2 : left - 16;
  const y = bottom - top < frame.clientHeight ? (top + bottom) / 2 - frame.clientHeight / 2 : top - 16;
  frame.scrollLeft += x - origin.left;
  frame.scrollTop += y - origin.top;
}

// Which part of a board picture the last move changed, for any game: the
// plugin's own marks (data-last) when it drew them, else the shapes and texts
// of the new picture that the previous one did not have. A move that redraws
// most of the picture marks nothing: the page names the move in words anyway.

const DRAWN = new Set(["rect", "circle", "ellipse", "line", "polyline", "polygon", "path", "text", "use", "image"]);
// What the page adds or what names a move, not what is drawn.
const NOT_DRAWN = new Set(["data-move", "data-part", "class", "tabindex", "role", "aria-label"]);
const MOST = 0.3;
export const CHANGED_CLASS = "last-move-part";

/**
 * Marks (with CHANGED_CLASS) what changed in `next` since `previous`. With
 * `sameMove` the previous picture showed the same last move (redrawn for
 * another event, e.g. the end): its marks carry over to the same shapes.
 * Returns how many elements it marked.
 */
export function markChanges(previous: Element | null, next: Element, sameMove = false): number {
  const marked = Array.from(next.querySelectorAll("[data-last]"));
  if (!marked.length && previous) {
    marked.push(...(sameMove ? sameShapes(Array.from(previous.querySelectorAll(`.${CHANGED_CLASS}`)), next)
      : newShapes(previous, next)));
  }
  for (const element of marked) element.classList.add(CHANGED_CLASS);
  return marked.length;
}

function sameShapes(marked: Element[], next: Element): Element[] {
  const wanted = new Set(marked.map(signature));
  return drawn(next).filter((element) => wanted.has(signature(element)));
}

function newShapes(previous: Element, next: Element): Element[] {
  const before = new Map<string, number>();
  for (const element of drawn(previous)) {
    const key = signature(element);
    before.set(key, (before.get(key) ?? 0) + 1);
  }
  const shapes = drawn(next);
  const added = shapes.filter((element) => {
    const key = signature(element);
    const left = before.get(key) ?? 0;
    if (left > 0) before.set(key, left - 1);
    return left === 0;
  });
  return added.length <= Math.max(1, shapes.length * MOST) ? added : [];
}

function drawn(root: Element): Element[] {
  return Array.from(root.querySelectorAll("*")).filter((element) => DRAWN.has(element.localName));
}

function signature(element: Element): string {
  const attributes = Array.from(element.attributes).filter((attribute) => !NOT_DRAWN.has(attribute.name))
    .map((attribute) => `${attribute.name}=${attribute.value}`).sort();
  const text = element.localName === "text" ? element.textContent ?? "" : "";
  return `${element.localName}|${attributes.join("|")}|${text}`;
}

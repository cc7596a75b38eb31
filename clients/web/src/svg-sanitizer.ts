// Plugin SVG is drawn inline (so its data-move targets can be clicked), but it
// comes from plugin code: keep only inert SVG. Parsed as XML and copied as
// nodes, never re-parsed from a string, so nothing can change meaning on the way.

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";

// Elements that run code, embed documents or pull in other content.
const REMOVED_ELEMENTS = new Set([
  "script", "foreignobject", "iframe", "object", "embed", "audio", "video", "canvas",
  "handler", "listener", "discard",
]);
// Attributes whose value is a URL.
const URL_ATTRIBUTES = new Set(["href", "src", "action", "formaction"]);
// A fragment (#id) or an inline raster image: the only URLs kept.
const SAFE_URL = /^(#[^\s]*|data:image\/(png|gif|jpe?g|webp);base64,[a-z0-9+/=\s]*)$/i;
const SCRIPTY_CSS = /javascript:|expression\s*\(|@import|behaviou?r\s*:|url\s*\(\s*['"]?\s*(?!#)/i;

export function sanitizeSvg(markup: string): SVGSVGElement | null {
  const parsed = new DOMParser().parseFromString(markup, "image/svg+xml");
  const root = parsed.documentElement;
  if (root.namespaceURI !== SVG_NS || root.localName !== "svg" || parsed.getElementsByTagName("parsererror").length) {
    return null;
  }
  cleanElement(root);
  const svg = document.importNode(root, true) as unknown as SVGSVGElement;
  fitToContainer(svg);
  return svg;
}

function cleanElement(element: Element): void {
  for (const attribute of Array.from(element.attributes)) {
    if (!isSafeAttribute(attribute)) element.removeAttributeNode(attribute);
  }
  for (const child of Array.from(element.children)) {
    if (isSafeElement(child)) {
      cleanElement(child);
    } else {
      child.remove();
    }
  }
}

function isSafeElement(element: Element): boolean {
  if (element.namespaceURI !== SVG_NS) return false;
  const name = element.localName.toLowerCase();
  if (REMOVED_ELEMENTS.has(name)) return false;
  if (name === "style") return !SCRIPTY_CSS.test(element.textContent ?? "");
  // <set>/<animate> could rewrite a link or a handler after sanitizing.
  if (["set", "animate", "animatemotion", "animatetransform"].includes(name)) {
    const target = (element.getAttribute("attributeName") ?? "").toLowerCase();
    return !(target.startsWith("on") || target.endsWith("href") || URL_ATTRIBUTES.has(target));
  }
  return true;
}

function isSafeAttribute(attribute: Attr): boolean {
  const name = attribute.localName.toLowerCase();
  if (name.startsWith("on")) return false;
  if (URL_ATTRIBUTES.has(name) || attribute.namespaceURI === XLINK_NS) {
    return SAFE_URL.test(attribute.value.replace(/[\u0000-\u0020]/g, ""));
  }
  if (name === "style") return !SCRIPTY_CSS.test(attribute.value);
  // Values that reach a link through animation (from/to/values of <set>/<animate>).
  return !(["from", "to", "values", "by"].includes(name) && /javascript:/i.test(attribute.value));
}

// Scale with the page: keep the drawing's proportions, let CSS set the size.
function fitToContainer(svg: SVGSVGElement): void {
  const width = parseFloat(svg.getAttribute("width") ?? "");
  const height = parseFloat(svg.getAttribute("height") ?? "");
  if (!svg.hasAttribute("viewBox") && width > 0 && height > 0) {
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  }
  svg.removeAttribute("width");
  svg.removeAttribute("height");
}

// Plugin SVG is drawn inline (so its data-move targets can be clicked), but it
// comes from plugin code: keep only inert SVG. DOMPurify's SVG profile is an
// allowlist (elements, attributes, URL schemes); on top of it this page keeps
// no CSS (presentation attributes draw a board; CSS could fetch from elsewhere)
// and no URL but a #fragment or an inline image. The result is DOM nodes,
// never a string parsed again, so nothing changes meaning after sanitizing.
import DOMPurify, { type Config } from "dompurify";

const SVG_NS = "http://www.w3.org/2000/svg";

// Links stay within the drawing (#id, e.g. <use href="#piece">); pictures come inline.
const LINK_ATTRIBUTES = new Set(["href", "xlink:href", "src"]);
const INLINE_IMAGE = /^data:image\/(png|gif|jpe?g|webp);base64,/i;

const purifier = DOMPurify(window);
purifier.addHook("uponSanitizeAttribute", (node, attribute) => {
  if (!LINK_ATTRIBUTES.has(attribute.attrName.toLowerCase())) return;
  const url = attribute.attrValue.replace(/[\u0000-\u0020]/g, "");
  const inlineImage = node.nodeName.toLowerCase() === "image" && INLINE_IMAGE.test(url);
  if (!url.startsWith("#") && !inlineImage) attribute.keepAttr = false;
});
const POLICY: Config & { RETURN_DOM_FRAGMENT: true } = {
  USE_PROFILES: { svg: true, svgFilters: true },
  FORBID_TAGS: ["style"],
  FORBID_ATTR: ["style"],
  // data-* stay: data-move, data-part, data-last are what the page reads.
  ALLOW_DATA_ATTR: true,
  RETURN_DOM_FRAGMENT: true,
};

export function sanitizeSvg(markup: string): SVGSVGElement | null {
  // Plugins write XML: anything that is not one well-formed <svg> document is refused whole.
  const parsed = new DOMParser().parseFromString(markup, "image/svg+xml");
  const root = parsed.documentElement;
  if (root.namespaceURI !== SVG_NS || root.localName !== "svg" || parsed.getElementsByTagName("parsererror").length) {
    return null;
  }
  const cleaned = purifier.sanitize(new XMLSerializer().serializeToString(root), POLICY);
  const svg = cleaned.firstElementChild;
  if (!(svg instanceof SVGSVGElement)) return null;
  fitToContainer(svg);
  return document.importNode(svg, true);
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

"""Is a picture legible on the page? Text size and target size of an SVG.

The web client draws a game's SVG as wide as its column: about 720 px on a
desktop page. An SVG with a wide viewBox is scaled down to that, and its text
with it, so a picture drawn at 1064 user units wide with 10-unit text shows
6.8 px text. These checks measure the picture as it is drawn at
``DRAWN_WIDTH`` px: scale = DRAWN_WIDTH / the viewBox's width (else the
``width`` attribute), times any ``scale``/``matrix`` transform on the way down.

- Text: every ``<text>`` with words in it is at least ``MIN_TEXT_PX`` high.
  Its font size comes from the nearest ``style="font-size:..."``, CSS rule
  of a ``<style>`` element (tag, ``.class`` or ``tag.class`` selectors) or
  ``font-size`` attribute, on the element or an ancestor (16 px when none).
- Targets: every element with ``data-move`` is at least ``MIN_TARGET_PX``
  on its shorter side, measured from its ``rect``, ``circle``, ``ellipse``,
  ``polygon`` or ``polyline`` geometry (a ``<g>``: the box around its
  shapes). Paths and text are not measured.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Iterator
from xml.etree import ElementTree
from xml.etree.ElementTree import Element

DRAWN_WIDTH = 720
MIN_TEXT_PX = 10.0
MIN_TARGET_PX = 24.0
DEFAULT_FONT_SIZE = 16.0  # what browsers use when nothing sets a size

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_LENGTH = re.compile(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(px|pt|em|%)?\s*$")
_TRANSFORM = re.compile(r"(matrix|scale|translate|rotate|skewX|skewY)\s*\(([^)]*)\)")
_CSS_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_FONT_SIZE_DECLARATION = re.compile(r"(?:^|;)\s*font-size\s*:\s*([^;]+)")


@dataclass(frozen=True)
class Problem:
    """One illegible thing: what it is, and its size as drawn."""

    kind: str  # "text" or "target"
    what: str
    pixels: float

    def __str__(self) -> str:
        limit = MIN_TEXT_PX if self.kind == "text" else MIN_TARGET_PX
        return f"{self.kind} {self.what} is {self.pixels:.1f} px at {DRAWN_WIDTH} px wide (at least {limit:g})"


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def drawn_scale(root: Element, width: float = DRAWN_WIDTH) -> float | None:
    """Pixels per user unit when the SVG is drawn ``width`` px wide; None if
    the SVG states no width at all."""
    box = root.get("viewBox")
    try:
        stated = _LENGTH.match(root.get("width", ""))
        units = float(box.replace(",", " ").split()[2]) if box else float(stated.group(1) if stated else "")
    except (IndexError, ValueError):
        return None
    return width / units if units > 0 else None


def _transform_scale(value: str | None) -> float:
    """How much a ``transform`` attribute scales lengths (the square root of
    its area factor: exact for uniform scales, a fair mean otherwise)."""
    factor = 1.0
    for name, arguments in _TRANSFORM.findall(value or ""):
        numbers = [float(n) for n in _NUMBER.findall(arguments)]
        if name == "scale" and numbers:
            factor *= math.sqrt(abs(numbers[0] * (numbers[1] if len(numbers) > 1 else numbers[0])))
        elif name == "matrix" and len(numbers) >= 4:
            factor *= math.sqrt(abs(numbers[0] * numbers[3] - numbers[1] * numbers[2]))
    return factor


def _css_font_sizes(root: Element) -> list[tuple[str, str, str]]:
    """(tag, class, size) of each simple CSS rule that sets a font size, in
    document order ("" matches any tag or class)."""
    rules = []
    for element in root.iter():
        if _local(element.tag) != "style" or not element.text:
            continue
        for selectors, body in _CSS_RULE.findall(re.sub(r"/\*.*?\*/", "", element.text, flags=re.S)):
            found = _FONT_SIZE_DECLARATION.search(body)
            if not found:
                continue
            for selector in selectors.split(","):
                tag, _, css_class = selector.strip().partition(".")
                if re.fullmatch(r"[\w-]*", tag) and re.fullmatch(r"[\w-]*", css_class) and (tag or css_class):
                    rules.append((tag if tag != "*" else "", css_class, found.group(1).strip()))
    return rules


def _resolve(size: str, inherited: float) -> float:
    match = _LENGTH.match(size.replace("!important", ""))
    if not match:
        return inherited  # "larger", "inherit", calc(...): leave the inherited size
    number, unit = float(match.group(1)), match.group(2) or "px"
    return {"px": number, "pt": number * 4 / 3, "em": number * inherited, "%": number * inherited / 100}[unit]


def _font_size(element: Element, inherited: float, css: list[tuple[str, str, str]]) -> float:
    """The element's font size in user units: its style attribute, else the
    last matching CSS rule, else its attribute, else the inherited one."""
    style = _FONT_SIZE_DECLARATION.search(element.get("style", ""))
    if style:
        return _resolve(style.group(1), inherited)
    tag, classes = _local(element.tag), set(element.get("class", "").split())
    matching = [size for rule_tag, rule_class, size in css
                if (not rule_tag or rule_tag == tag) and (not rule_class or rule_class in classes)]
    if matching:
        return _resolve(matching[-1], inherited)
    stated = element.get("font-size")
    return _resolve(stated, inherited) if stated else inherited


_TEXT_TAGS = ("text", "tspan")


def _walk(root: Element, scale: float, css: list[tuple[str, str, str]] | None
          ) -> Iterator[tuple[Element, float, float]]:
    """Every element with its font size (user units) and its pixels per
    user unit. A font size is worked out only where it is read: on text
    and on elements with children (they pass it down); other elements, and
    every element when ``css`` is None, carry the inherited one."""
    pending = [(root, DEFAULT_FONT_SIZE, scale * _transform_scale(root.get("transform")))]
    while pending:
        element, inherited, pixels = pending.pop()
        size = inherited if css is None or not (len(element) or _local(element.tag) in _TEXT_TAGS) \
            else _font_size(element, inherited, css)
        yield element, size, pixels
        pending.extend((child, size, pixels * _transform_scale(child.get("transform"))) for child in element)


def _parsed(svg: str | Element) -> Element:
    """The SVG's root: the conformance kit parses each picture once for all its checks."""
    return ElementTree.fromstring(svg) if isinstance(svg, str) else svg


def _words(element: Element) -> str:
    return " ".join("".join(element.itertext()).split())


def text_problems(svg: str | Element, width: float = DRAWN_WIDTH, minimum: float = MIN_TEXT_PX) -> list[Problem]:
    """Each ``<text>`` smaller than ``minimum`` px when the SVG (its text,
    or its root parsed already) is drawn ``width`` px wide (the first of
    each distinct text)."""
    root = _parsed(svg)
    scale = drawn_scale(root, width)
    if scale is None:
        return []
    problems, seen = [], set()
    for element, size, pixels in _walk(root, scale, _css_font_sizes(root)):
        if _local(element.tag) not in _TEXT_TAGS:
            continue
        words = "".join(element.text or "").strip() if _local(element.tag) == "tspan" else _words(element)
        drawn = size * pixels
        if words and drawn < minimum - 1e-9 and words not in seen:
            seen.add(words)
            problems.append(Problem("text", repr(words[:40]), drawn))
    return problems


def _points(element: Element) -> list[tuple[float, float]]:
    """Corners of a shape's box in its own user units (none if not a measured shape)."""
    tag, at = _local(element.tag), element.attrib

    def number(name: str) -> float:
        found = _NUMBER.match(at.get(name, "0").strip())
        return float(found.group()) if found else 0.0

    if tag == "rect":
        x, y = number("x"), number("y")
        return [(x, y), (x + number("width"), y + number("height"))]
    if tag == "circle":
        cx, cy, r = number("cx"), number("cy"), number("r")
        return [(cx - r, cy - r), (cx + r, cy + r)]
    if tag == "ellipse":
        cx, cy, rx, ry = number("cx"), number("cy"), number("rx"), number("ry")
        return [(cx - rx, cy - ry), (cx + rx, cy + ry)]
    if tag in ("polygon", "polyline"):
        values = [float(n) for n in _NUMBER.findall(at.get("points", ""))]
        return list(zip(values[0::2], values[1::2]))
    return []


def _target_side(element: Element) -> float | None:
    """The shorter side of a target's box in user units (its own shape, or
    the box around the measured shapes inside it), None if unmeasured.
    Transforms inside a target are not followed."""
    corners = [point for part in element.iter() if part.get("transform") is None or part is element
               for point in _points(part)]
    if not corners:
        return None
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return min(max(xs) - min(xs), max(ys) - min(ys))


def target_problems(svg: str | Element, width: float = DRAWN_WIDTH, minimum: float = MIN_TARGET_PX
                    ) -> list[Problem]:
    """Each ``data-move`` target smaller than ``minimum`` px on its shorter
    side when the SVG (its text, or its root parsed already) is drawn
    ``width`` px wide."""
    root = _parsed(svg)
    scale = drawn_scale(root, width)
    if scale is None:
        return []
    problems = []
    for element, _, pixels in _walk(root, scale, None):
        move = element.get("data-move")
        if move is None:
            continue
        side = _target_side(element)
        if side is not None and side * pixels < minimum - 1e-9:
            problems.append(Problem("target", repr(move), side * pixels))
    return problems

"""Text and SVG pictures of a Burgbaumeister view.

Renderers read only the view (rules.public_view), never the state: what they
draw is exactly what the viewer may know. Their words go through the
catalogue (``gettext``/``tr``) in the language the host renders for.
"""

from __future__ import annotations

from html import escape
from typing import Any, Mapping, Sequence

from gamehost.sdk import gettext as _, tr

from gamehost.sdk import seat_name

SPECIAL_MARKS = {
    "king": "K", "queen": "Q", "prince": "Pr", "princess": "Ps", "raven": "R",
    "double-raven": "RR", "cannon": "C", "tower": "T", "magician": "M",
}
SPECIAL_COLOURS = {
    "king": "#b8860b", "queen": "#b8860b", "prince": "#2c6e49", "princess": "#a23e8c",
    "raven": "#333333", "double-raven": "#333333", "cannon": "#b03a2e", "tower": "#5d6d7e",
    "magician": "#6c3483",
}
MARKS_LEGEND = "K king, Q queen, Pr prince, Ps princess, R/RR ravens, C cannon, T tower, M magician; + safe from cannons"
"""The text picture's key to SPECIAL_MARKS (a language with other marks says them in its own key)."""
SVG_SPECIAL_NAMES = {"double-raven": "2 ravens"}
PHASE_TEXT = {
    "reveal": "Turn {turn}: {player} turns a face-down card face up.",
    "decide": "Turn {turn}: {player} takes the face-up card or turns it back.",
    "fire": "Turn {turn}: {player} fires the cannon.",
}
END_TEXT = {
    "wall-complete": "Game over after {turns} turns: a wall of 10 cards is complete.",
    "no-card-takeable": "Game over after {turns} turns: no one can take any remaining card.",
    "stalled": "Game over after {turns} turns: too many turns in a row without a take.",
}
WALL_TEXT = {
    # a wall's line in the text picture, by wall_kind
    (False, False): "{player} ({score} cards): {cards}",
    (True, False): "{player} ({score} points): {cards}",
    (True, True): "{player} ({score} points, magician ready): {cards}",
}
WALL_SCORE_SVG = {
    (False, False): "{score} cards",
    (True, False): "{score} points",
    (True, True): "{score} points, magician",
}


def place_name(view: Mapping[str, Any], place: int) -> str:
    columns = view["grid"]["columns"]
    return f"{view['grid']['rows'][place // columns]}{place % columns + 1}"


def card_label(card: Mapping[str, Any]) -> str:
    """'16T' for a tower 16; a trailing '+' marks a card a cannon cannot remove."""
    mark = SPECIAL_MARKS.get(card["special"])
    label = f"{card['number']}{_(mark) if mark else ''}"
    return label + ("+" if card.get("protected") else "")


def wall_kind(view: Mapping[str, Any], wall: Mapping[str, Any]) -> tuple[bool, bool]:
    """(points variant, magician ready): which of WALL_TEXT's and WALL_SCORE_SVG's sentences a wall takes."""
    return view["special_cards"], view["special_cards"] and wall["magician_ready"]


def status_line(view: Mapping[str, Any]) -> str:
    if view["phase"] == "over":
        return tr(END_TEXT[view["end"]], turns=view["turn"])
    return tr(PHASE_TEXT[view["phase"]], turn=view["turn"] + 1, player=seat_name(view["to_move"]))


# --- Text ----------------------------------------------------------------

def render_text(view: Mapping[str, Any]) -> str:
    columns = view["grid"]["columns"]
    remembered = view.get("remembered")
    lines = [status_line(view), "    " + "".join(f"{column + 1:^6}" for column in range(columns))]
    for row, row_name in enumerate(view["grid"]["rows"]):
        cells = []
        for place in range(row * columns, (row + 1) * columns):
            card = view["table"][place]
            if card is None:
                cells.append("  .   ")
            elif card == "down":
                cells.append(f" ({remembered[place]:>2}) " if remembered and remembered[place] else "  ##  ")
            else:
                cells.append(f" [{card:>2}] ")
        lines.append(f"{row_name}   " + "".join(cells))
    if view["revealed"]:
        revealed = view["revealed"]
        if revealed["special"]:
            lines.append(tr("Face up at {place}: {number} ({special})", place=revealed["place"],
                            number=revealed["number"], special=_(revealed["special"])))
        else:
            lines.append(tr("Face up at {place}: {number}", place=revealed["place"], number=revealed["number"]))
    for seat, wall in enumerate(view["walls"]):
        pointer = ">" if seat == view["to_move"] else " "
        cards = " ".join(card_label(card) for card in wall["cards"])
        line = tr(WALL_TEXT[wall_kind(view, wall)], player=seat_name(seat), score=wall["score"], cards=cards)
        lines.append(f"{pointer} {line}")
    if view["discard"]:
        lines.append(tr("Discarded: {cards}", cards=" ".join(card_label(card) for card in view["discard"])))
    if view["special_cards"]:
        lines.append(_(MARKS_LEGEND))
    lines.append(tr("Face down: {count}; turns without a take: {idle} of {limit}", count=view["face_down"],
                    idle=view["idle_turns"], limit=view["stall_limit"]))
    return "\n".join(lines)


# --- SVG -----------------------------------------------------------------

SLOT_LABELS = {"take": "take", "magician": "insert"}
CARD_W, CARD_H, GAP = 46, 64, 8
WALL_CARD_W, WALL_CARD_H = 40, 56
MARGIN = 20


def clickable(move_id: str | None) -> str:
    return f' data-move="{escape(move_id)}" style="cursor:pointer"' if move_id else ""


def svg_card(x: int, y: int, w: int, h: int, card: Mapping[str, Any], move_id: str | None = None) -> str:
    """A face-up card: number, special name, a thick border if a cannon cannot
    remove it, a red halo if clicking it is a move."""
    special = card["special"]
    colour = SPECIAL_COLOURS.get(special, "#222")
    border = ' stroke-width="3"' if card.get("protected") else ""
    parts = [f'<g{clickable(move_id)}>']
    if move_id:
        parts.append(f'<rect x="{x - 3}" y="{y - 3}" width="{w + 6}" height="{h + 6}" rx="6" fill="none" '
                     f'stroke="#c0392b" stroke-width="2" stroke-dasharray="5 3"/>')
    parts += [
             f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="4" fill="#fffaf0" stroke="{colour}"{border}/>',
             f'<text x="{x + w // 2}" y="{y + h // 2 + 2}" font-size="18" text-anchor="middle" '
             f'font-family="sans-serif" fill="{colour}">{card["number"]}</text>']
    if special:
        parts.append(f'<text x="{x + w // 2}" y="{y + h - 5}" font-size="11" text-anchor="middle" '
                     f'font-family="sans-serif" fill="{colour}">{escape(_(SVG_SPECIAL_NAMES.get(special, special)))}</text>')
    parts.append("</g>")
    return "".join(parts)


def render_svg(view: Mapping[str, Any], moves: Sequence[Any]) -> str:
    reveal_moves = {move.args["place"]: move.id for move in moves if move.args.get("action") == "reveal"}
    fire_moves = {(move.args["seat"], move.args["card"]): move.id for move in moves if move.args.get("action") == "fire"}
    move_ids = {move.id for move in moves}
    columns, rows = view["grid"]["columns"], view["grid"]["rows"]
    remembered = view.get("remembered")
    longest = max(len(wall["cards"]) for wall in view["walls"]) + 2
    width = max(2 * MARGIN + columns * (CARD_W + GAP), 2 * MARGIN + 120 + longest * (WALL_CARD_W + 4))
    table_bottom = MARGIN + 30 + len(rows) * (CARD_H + GAP)
    height = table_bottom + 30 + len(view["walls"]) * (WALL_CARD_H + 16) + 30
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}">',
             f'<rect width="{width}" height="{height}" fill="#e9e2cf"/>',
             f'<text x="{MARGIN}" y="{MARGIN + 8}" font-size="14" font-family="sans-serif">{escape(status_line(view))}</text>']
    for place, card in enumerate(view["table"]):
        x = MARGIN + (place % columns) * (CARD_W + GAP)
        y = MARGIN + 30 + (place // columns) * (CARD_H + GAP)
        name = place_name(view, place)
        if card is None:
            parts.append(f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="4" fill="none" '
                         f'stroke="#b5ab90" stroke-dasharray="4 3"/>')
        elif card == "down":
            parts.append(f'<g{clickable(reveal_moves.get(place))}>'
                         f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="4" fill="#2c3e70" stroke="#1b2540"/>'
                         f'<text x="{x + CARD_W // 2}" y="{y + 14}" font-size="10" text-anchor="middle" '
                         f'font-family="sans-serif" fill="#c9d3ee">{name}</text>')
            if remembered and remembered[place]:
                parts.append(f'<text x="{x + CARD_W // 2}" y="{y + CARD_H // 2 + 8}" font-size="16" text-anchor="middle" '
                             f'font-family="sans-serif" fill="#8fa0cc">{remembered[place]}</text>')
            parts.append("</g>")
        else:
            parts.append(svg_card(x, y, CARD_W, CARD_H, view["revealed"], "decline" if "decline" in move_ids else None))
    for seat, wall in enumerate(view["walls"]):
        y = table_bottom + 30 + seat * (WALL_CARD_H + 16)
        weight = ' font-weight="bold"' if seat == view["to_move"] else ""
        parts.append(f'<text x="{MARGIN}" y="{y + WALL_CARD_H // 2}" font-size="13" font-family="sans-serif"{weight}>'
                     f'{escape(tr("Player {number}", number=seat + 1))}</text>'
                     f'<text x="{MARGIN}" y="{y + WALL_CARD_H // 2 + 16}" font-size="11" font-family="sans-serif">'
                     f'{escape(tr(WALL_SCORE_SVG[wall_kind(view, wall)], score=wall["score"]))}</text>')
        slots = list(wall["cards"])
        if seat == view["to_move"] and view["revealed"]:
            if "magician" in move_ids:
                slots.insert(sum(1 for card in slots if card["number"] < view["revealed"]["number"]), "magician")
            if "take" in move_ids:
                slots.append("take")
        for index, slot in enumerate(slots):
            x = MARGIN + 120 + index * (WALL_CARD_W + 4)
            if isinstance(slot, str):
                parts.append(f'<g{clickable(slot)}><rect x="{x}" y="{y}" width="{WALL_CARD_W}" height="{WALL_CARD_H}" '
                             f'rx="4" fill="#fffaf0" fill-opacity="0.5" stroke="#2c6e49" stroke-dasharray="4 3"/>'
                             f'<text x="{x + WALL_CARD_W // 2}" y="{y + WALL_CARD_H // 2 + 4}" font-size="10" '
                             f'text-anchor="middle" font-family="sans-serif">{escape(_(SLOT_LABELS[slot]))}</text></g>')
            else:
                parts.append(svg_card(x, y, WALL_CARD_W, WALL_CARD_H, slot, fire_moves.get((seat, slot["number"]))))
    if view["discard"]:
        discard = " ".join(card_label(card) for card in view["discard"])
        parts.append(f'<text x="{MARGIN}" y="{height - 12}" font-size="12" font-family="sans-serif">'
                     f'{escape(tr("Discarded: {cards}", cards=discard))}</text>')
    parts.append("</svg>")
    return "".join(parts)

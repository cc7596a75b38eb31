"""Text and SVG pictures of a Campanile view (see rules.player_view).

Both show the towers left to right with their heights and the chips beneath in
bet order, the three piles with their tops and sizes, the viewer's own hand,
and the scores once the game is over. Their words come in the language the
host renders for (``gettext``/``tr``); the style ids S1 to S5 are names, the
same in every language.
"""

from __future__ import annotations

from gamehost.sdk import gettext as _, player_number, tr

# Shades a word drawn on them reads on at WCAG AA (4.5:1), in white or, on the light ones, in near black (ink).
STYLE_COLOURS = {"S1": "#a65a40", "S2": "#707070", "S3": "#7a5a3a", "S4": "#d8b25c", "S5": "#4f7299"}
SEAT_COLOURS = ("#c0392b", "#2c6fbb", "#24804a", "#8e44ad", "#d68910")
TOWER_BASE = "#55751a"
DARK_INK = "#1a1a1a"


def luminance(colour: str) -> float:
    """WCAG's relative luminance of "#rrggbb"."""
    channels = [int(colour[at:at + 2], 16) / 255 for at in (1, 3, 5)]
    r, g, b = (value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4 for value in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink(fill: str) -> str:
    """The colour of words drawn on `fill`: white where it reads at 4.5:1, else near black."""
    return "#fff" if (1.05) / (luminance(fill) + 0.05) >= 4.5 else DARK_INK


def step_text(step: str) -> str:
    """What the player to move does next, for the status line."""
    return {"build": _("build"), "bet": _("bet or draw"), "draw": _("draw")}[step]


def player(seat: int) -> str:
    """"Player 1" for seat 0, as the rules name players (rules.player_name)."""
    return tr("Player {number}", number=player_number(seat))


def named(name: str, value: str) -> str:
    """"Player 1: 8": each language punctuates it its own way."""
    return tr("{name}: {value}", name=name, value=value)


def hand_styles(view) -> list[str]:
    """The styles of the viewer's hand cards (tokens are "<style>#<nn>")."""
    return [card.split("#", 1)[0] for card in view.get("hand", [])]


def cards(count: int) -> str:
    return tr("{count} card", count=count) if count == 1 else tr("{count} cards", count=count)


def chips_text(chips: list[int]) -> str:
    return "+".join(str(chip) for chip in chips)


def bettors_text(entries) -> str:
    return ", ".join(f"{player(entry['seat'])} ({chips_text(entry['chips'])})" for entry in entries) or "-"


def status_text(view) -> str:
    if view["step"] == "over":
        return _("Game over.")
    if view["built"]:
        built = view["built"]
        return tr("{player} to move: {step} (built {tower} +{storeys}; draws from pile {pile}).",
                  player=player(view["turn"]), step=step_text(view["step"]), tower=built["style"],
                  storeys=built["storeys"], pile=built["storeys"])
    return tr("{player} to move: {step}.", player=player(view["turn"]), step=step_text(view["step"]))


def options_text(view) -> str:
    options = view["options"]
    rule = (_("bet chip worth at least the storeys built") if options["bet_rule"] == "at_least"
            else _("bet chip worth exactly the storeys built"))
    return tr("{rule}; may also bet on the tower just built", rule=rule) if options["bet_on_built_tower"] else rule


def semicolon_list(items: list[str]) -> str:
    """Items separated by semicolons, each language spacing them its own way."""
    listed = items[0]
    for item in items[1:]:
        listed = tr("{earlier}; {later}", earlier=listed, later=item)
    return listed


def chips_left(chips) -> str:
    """A player's unplaced chips, "5x1 3x2 1x3": counts and values, no words."""
    return " ".join(f"{count}x{value}" for value, count in chips.items())


def text(view) -> str:
    lines = [tr("Campanile, {players} players: {options}.", players=view["players"], options=options_text(view)),
             _("Piles (after building n storeys, draw from pile n):")]
    for pile in view["piles"]:
        top = pile["top"] or _("empty (Finito)")
        lines.append("  " + tr("pile {number}: top {top}, {cards}", number=pile["number"], top=top,
                               cards=cards(pile["size"])))
    lines.append(_("Towers, left to right (the left one wins a tie):"))
    for style in view["row"]:
        height = view["heights"][style]
        lines.append(f"  {style} {'#' * height:<30} {height:>3}  "
                     + tr("bets: {bettors}", bettors=bettors_text(view["bets"][style])))
    lines.append(tr("Chips left: {chips}", chips=semicolon_list(
        [named(player(seat), chips_left(chips)) for seat, chips in enumerate(view["chips"])])))
    lines.append(tr("Cards in hand: {cards}", cards=", ".join(
        named(player(seat), str(size)) for seat, size in enumerate(view["hand_sizes"]))))
    if view["viewer"] is not None:
        lines.append(tr("Hand of {player}: {cards}", player=player(view["viewer"]), cards=" ".join(hand_styles(view))))
    lines.append(status_text(view))
    if view["result"]:
        lines += result_lines(view["result"])
    return "\n".join(lines)


def result_lines(result) -> list[str]:
    lines = []
    for flag in result["flags"]:
        big, small = flag["flag"]
        awards = ", ".join(f"{player(award['seat'])} {award['points']}" for award in flag["awards"]) or _("nobody bet")
        lines.append("  " + tr("flag {big}/{small} on {tower}: {awards}", big=big, small=small, tower=flag["tower"],
                               awards=awards))
    lines.append("  " + tr("no flag on {tower}", tower=result["tower_ranking"][-1]))
    lines.append(tr("Scores: {scores}", scores=", ".join(
        named(player(seat), str(score)) for seat, score in enumerate(result["scores"]))))
    return lines


# --- SVG ------------------------------------------------------------------------

WIDTH, HEIGHT = 780, 660
PILE_X, TOWER_X0, TOWER_DX = 14, 150, 124
BUTTON_HEIGHT = 28  # 26 px drawn 720 px wide: a fingertip's target
BASE_Y, TOWER_ROOM = 320, 230


def svg_text(x, y, content, size=13, anchor="middle", fill="#222", weight="normal") -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" font-family="sans-serif" '
            f'fill="{fill}" font-weight="{weight}">{content}</text>')


def button(x, y, width, label, move_id) -> str:
    return (f'<g data-move="{move_id}" style="cursor:pointer"><rect x="{x}" y="{y}" width="{width}" height="{BUTTON_HEIGHT}" '
            f'rx="4" fill="#fff3c4" stroke="#9a7b1c"/>{svg_text(x + width / 2, y + 19, label, 12)}</g>')


def svg(view, moves) -> str:
    by_id = {move.id: move for move in moves}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}">',
             f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#f6f1e4"/>',
             svg_text(WIDTH / 2, 22, tr("Campanile: {options}", options=options_text(view)), 14)]
    parts += svg_piles(view, by_id)
    parts += svg_towers(view, by_id)
    parts += svg_footer(view)
    parts.append("</svg>")
    return "".join(parts)


def svg_piles(view, by_id) -> list[str]:
    """Pile 3 on top, pile 1 at the bottom, as the rules lay them out."""
    parts = []
    for pile in view["piles"]:
        y = 60 + (3 - pile["number"]) * 90
        move_id = f"draw:{pile['number']}"
        move_attr = f' data-move="{move_id}" style="cursor:pointer"' if move_id in by_id else ""
        fill = STYLE_COLOURS.get(pile["top"], "#555555")
        stroke = ' stroke="#d4a017" stroke-width="4"' if move_attr else ' stroke="#333"'
        parts.append(f'<g{move_attr}><rect x="{PILE_X}" y="{y}" width="110" height="74" rx="6" fill="{fill}"{stroke}/>'
                     + svg_text(PILE_X + 55, y + 24, tr("pile {number}", number=pile["number"]), 13, fill=ink(fill),
                                weight="bold")
                     + svg_text(PILE_X + 55, y + 44, tr("top {top}", top=pile["top"] or "Finito"), 13, fill=ink(fill))
                     + svg_text(PILE_X + 55, y + 63, cards(pile["size"]), 12, fill=ink(fill)) + "</g>")
    return parts


def svg_towers(view, by_id) -> list[str]:
    parts = []
    tallest = max(view["heights"].values())
    storey = min(10.0, TOWER_ROOM / tallest) if tallest else 10.0
    flags = {flag["tower"]: f"{flag['flag'][0]}/{flag['flag'][1]}" for flag in (view["result"] or {"flags": []})["flags"]}
    for column, style in enumerate(view["row"]):
        x = TOWER_X0 + column * TOWER_DX
        height = view["heights"][style]
        top = BASE_Y - height * storey
        parts.append(f'<rect x="{x + 30}" y="{top:.1f}" width="50" height="{height * storey:.1f}" '
                     f'fill="{STYLE_COLOURS[style]}" stroke="#333"/>')
        parts.append(svg_text(x + 55, top - 6, str(height), 13, weight="bold"))
        if style in flags:
            parts.append(f'<rect x="{x + 33}" y="{top - 42}" width="44" height="18" fill="#fff" stroke="#b22"/>'
                         + svg_text(x + 55, top - 28, flags[style], 12, fill="#b22", weight="bold"))
        parts.append(f'<rect x="{x + 10}" y="{BASE_Y}" width="90" height="18" fill="{TOWER_BASE}"/>')
        parts.append(svg_text(x + 55, BASE_Y + 14, style, 12, fill=ink(TOWER_BASE), weight="bold"))
        for offset, storeys in enumerate((1, 2, 3)):
            move_id = f"build:{style}:{storeys}"
            if move_id in by_id:
                parts.append(button(x + 4 + offset * 34, BASE_Y + 24, 32, f"+{storeys}", move_id))
        for offset, chip in enumerate((1, 2, 3)):
            move_id = f"bet:{style}:{chip}"
            if move_id in by_id:
                parts.append(button(x + 4 + offset * 34, BASE_Y + 28 + BUTTON_HEIGHT, 32, tr("bet {chip}", chip=chip),
                                    move_id))
        # Chips beneath the tower, one row per bettor in bet order.
        for row, entry in enumerate(view["bets"][style]):
            y = BASE_Y + 96 + row * 19
            colour = SEAT_COLOURS[entry["seat"] % len(SEAT_COLOURS)]
            for index, chip in enumerate(entry["chips"]):
                cx = x + 12 + index * 17
                parts.append(f'<circle cx="{cx}" cy="{y}" r="8.5" fill="{colour}"/>'
                             + svg_text(cx, y + 4, str(chip), 11, fill=ink(colour)))
    return parts


def svg_footer(view) -> list[str]:
    parts = []
    y = BASE_Y + 200
    for seat, left in enumerate(view["chips"]):
        parts.append(f'<circle cx="{20 + seat * 150}" cy="{y - 4}" r="6" fill="{SEAT_COLOURS[seat]}"/>'
                     + svg_text(30 + seat * 150, y, named(player(seat), cards(view["hand_sizes"][seat])), 12,
                                anchor="start")
                     + svg_text(30 + seat * 150, y + 16, tr("chips {chips}", chips=chips_left(left)), 12, anchor="start"))
    if view["viewer"] is not None:
        parts.append(svg_text(14, y + 48, tr("Hand of {player}:", player=player(view["viewer"])), 13, anchor="start"))
        for index, style in enumerate(hand_styles(view)):
            cx = 180 + index * 60
            parts.append(f'<rect x="{cx}" y="{y + 34}" width="50" height="22" rx="3" fill="{STYLE_COLOURS[style]}"/>'
                         + svg_text(cx + 25, y + 50, style, 12, fill=ink(STYLE_COLOURS[style]), weight="bold"))
    parts.append(svg_text(14, y + 76, status_text(view), 13, anchor="start"))
    if view["result"]:
        scores = " · ".join(named(player(seat), str(score)) for seat, score in enumerate(view["result"]["scores"]))
        parts.append(svg_text(14, y + 100, tr("Scores: {scores}", scores=scores), 14, anchor="start", weight="bold"))
    return parts

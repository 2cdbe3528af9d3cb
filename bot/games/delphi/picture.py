"""The Delphi layout as a PNG (Pillow), drawn from the view alone: the card to judge above;
the line left to right in bands of 13, each card with its incorrect cards fanned below it; the
cards set aside at the bottom. Every shape is drawn here (no third-party card art)."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont

from bot.cards import FrenchCard, Suit
from bot.games.delphi import DelphiView
from bot.i18n.pictures import in_picture

CARD_W, CARD_H, GAP, PEEK, MARGIN = 46, 64, 6, 22, 14
COLUMNS = 13  # line cards per band before the line wraps
Colour = tuple[int, int, int]
FELT = (31, 81, 48)
PAPER = (248, 249, 250)
INK = (33, 37, 41)
RED = (201, 42, 42)
GOLD = (250, 219, 95)
MUTED = (190, 210, 195)
HEADER_H = CARD_H + 2 * MARGIN


def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def render_layout(view: DelphiView) -> bytes:
    """The card to judge above; the line left to right in bands of 13, each card with its
    incorrect cards fanned below it; the cards set aside at the bottom."""
    width = 2 * MARGIN + COLUMNS * (CARD_W + GAP)
    bands = [
        (view.line[i : i + COLUMNS], view.below[i : i + COLUMNS])
        for i in range(0, len(view.line), COLUMNS)
    ]
    heights = [band_height(below) for _, below in bands]
    aside_h = (PEEK + CARD_H + MARGIN) if view.aside else 0
    height = HEADER_H + sum(heights) + aside_h + MARGIN
    image = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    draw_header(draw, view)
    top = HEADER_H
    for (line, below), band in zip(bands, heights, strict=True):
        for column, (card, under) in enumerate(zip(line, below, strict=True)):
            x = MARGIN + column * (CARD_W + GAP)
            draw_card(draw, (x, top), card)
            for index, incorrect in enumerate(under):
                draw_card(draw, (x, top + CARD_H + GAP + index * PEEK), incorrect)
        top += band
    if view.aside:
        draw.text((MARGIN, top), in_picture("Set aside, unjudged"), fill=MUTED, font=font(14))
        step = min(CARD_W + GAP, (width - 2 * MARGIN - CARD_W) // max(1, len(view.aside) - 1))
        for index, card in enumerate(view.aside):
            draw_card(draw, (MARGIN + index * step, top + PEEK), card)
    out = io.BytesIO()
    image.quantize(colors=32, method=Image.Quantize.FASTOCTREE).save(out, format="PNG")
    return out.getvalue()


def band_height(below: list[list[FrenchCard]]) -> int:
    deepest = max((len(under) for under in below), default=0)
    fanned = GAP + CARD_H + (deepest - 1) * PEEK if deepest else 0
    return CARD_H + fanned + MARGIN


def draw_header(draw: ImageDraw.ImageDraw, view: DelphiView) -> None:
    if view.current is not None:
        draw_card(draw, (MARGIN, MARGIN), view.current, outline=GOLD)
        text = in_picture("Card {number} of {of}: correct or not?", number=view.number, of=view.of)
    elif view.phase == "rule":
        text = in_picture("The oracle is writing the secret rule")
    else:
        text = in_picture("Hand over")
    x = MARGIN + (CARD_W + 2 * GAP if view.current is not None else 0)
    draw.text((x, MARGIN + CARD_H // 2), text, fill=PAPER, font=font(20), anchor="lm")


def draw_card(
    draw: ImageDraw.ImageDraw, at: tuple[int, int], card: FrenchCard, outline: Colour = INK
) -> None:
    assert card.rank is not None and card.suit is not None  # Delphi's pack has no jokers
    x, y = at
    draw.rounded_rectangle(
        (x, y, x + CARD_W, y + CARD_H), radius=6, fill=PAPER, outline=outline, width=2
    )
    colour = RED if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else INK
    draw.text((x + 5, y + 3), card.rank.label, fill=colour, font=font(16))
    draw_suit(draw, card.suit, (x + CARD_W - 11, y + 11), 6, colour)
    draw_suit(draw, card.suit, (x + CARD_W // 2, y + CARD_H // 2 + 8), 12, colour)


def draw_suit(
    draw: ImageDraw.ImageDraw, suit: Suit, centre: tuple[int, int], r: float, colour: Colour
) -> None:
    """♠ ♥ ♦ ♣ from plain shapes (the default font has no suit glyphs)."""
    x, y = centre
    if suit is Suit.DIAMONDS:
        draw.polygon([(x, y - r), (x + r * 0.75, y), (x, y + r), (x - r * 0.75, y)], fill=colour)
        return
    if suit is Suit.CLUBS:
        lobe = r * 0.48
        for cx, cy in ((x, y - r * 0.45), (x - r * 0.5, y + r * 0.15), (x + r * 0.5, y + r * 0.15)):
            draw.ellipse((cx - lobe, cy - lobe, cx + lobe, cy + lobe), fill=colour)
    else:  # a heart, or a spade: a heart upside down
        sign = 1 if suit is Suit.HEARTS else -1
        lobe = r * 0.52
        for cx in (x - r * 0.48, x + r * 0.48):
            cy = y - sign * r * 0.3
            draw.ellipse((cx - lobe, cy - lobe, cx + lobe, cy + lobe), fill=colour)
        draw.polygon(
            [(x - r, y - sign * r * 0.15), (x + r, y - sign * r * 0.15), (x, y + sign * r)],
            fill=colour,
        )
    if suit in (Suit.SPADES, Suit.CLUBS):  # the stem
        draw.polygon([(x, y), (x - r * 0.35, y + r), (x + r * 0.35, y + r)], fill=colour)

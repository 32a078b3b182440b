"""Drawing primitives on palette ("P") images: exact colours, antialiasing by a few coverage bands.

Everything is drawn straight into palette indices, so no quantisation pass is needed and every solid
colour in the output is exactly the scene's colour. Text and token shapes are antialiased by splitting
their coverage mask into four bands, each pasted with a blend of the ink and the known colour below.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageColor, ImageDraw, ImageFont

RGB = tuple[int, int, int]
LEVELS = (0.25, 0.5, 0.75, 1.0)
_BOUNDS = (32, 96, 160, 224)  # coverage above _BOUNDS[k] (and up to the next) is drawn at LEVELS[k]
_BAND_LUTS = [
    [255 if lo < v <= hi else 0 for v in range(256)]
    for lo, hi in zip(_BOUNDS, (*_BOUNDS[1:], 255), strict=True)
]
_font_lock = threading.Lock()
SS = 4  # supersampling factor for shapes


@lru_cache(maxsize=1024)
def rgb(colour: str) -> RGB:
    """``#rrggbb`` (or any Pillow colour name) as an RGB tuple. Raises ValueError if unreadable."""
    c = ImageColor.getrgb(colour)
    return c[0], c[1], c[2]


def blend(fg: RGB, bg: RGB, t: float) -> RGB:
    """``fg`` over ``bg`` at opacity ``t`` (0..1)."""
    return (
        round(bg[0] + (fg[0] - bg[0]) * t),
        round(bg[1] + (fg[1] - bg[1]) * t),
        round(bg[2] + (fg[2] - bg[2]) * t),
    )


class Palette:
    """Up to 256 colours, indexed on first use; past 256 a colour maps to its nearest entry."""

    def __init__(self, colours: list[RGB] | None = None) -> None:
        self.colours: list[RGB] = []
        self._index: dict[RGB, int] = {}
        self._blends: dict[tuple[RGB, RGB, float], int] = {}
        for c in colours or []:
            self.idx(c)

    def copy(self) -> Palette:
        """An independent copy (same indices)."""
        p = Palette()
        p.colours = list(self.colours)
        p._index = dict(self._index)
        p._blends = dict(self._blends)
        return p

    def idx(self, c: RGB) -> int:
        """The palette index of colour ``c``, adding it if there is room."""
        i = self._index.get(c)
        if i is None:
            if len(self.colours) < 256:
                i = len(self.colours)
                self.colours.append(c)
            else:
                i = min(
                    range(256),
                    key=lambda k: sum((a - b) ** 2 for a, b in zip(self.colours[k], c, strict=True)),
                )
            self._index[c] = i
        return i

    def blend_idx(self, fg: RGB, bg: RGB, level: float) -> int:
        """The index of ``fg`` over ``bg`` at opacity ``level``."""
        key = (fg, bg, level)
        i = self._blends.get(key)
        if i is None:
            i = self._blends[key] = self.idx(fg if level >= 1.0 else blend(fg, bg, level))
        return i

    def flat(self) -> list[int]:
        """The palette as a flat ``[r, g, b, r, g, b, ...]`` list for ``Image.putpalette``."""
        return [v for c in self.colours for v in c]


Bands = tuple[Image.Image | None, Image.Image | None, Image.Image | None, Image.Image | None]


def bands_of(mask: Image.Image) -> Bands:
    """Split an "L" coverage mask into four "1" masks, one per level of :data:`LEVELS` (None if empty)."""
    out = []
    for lut in _BAND_LUTS:
        b = mask.point(lut, "1")
        out.append(b if b.getbbox() else None)
    return out[0], out[1], out[2], out[3]


def put_bands(im: Image.Image, pal: Palette, xy: tuple[int, int], bands: Bands, fg: RGB, bg: RGB) -> None:
    """Paste ``fg`` through each band of ``bands`` at ``xy``, blended over ``bg`` by the band's level."""
    for level, band in zip(LEVELS, bands, strict=True):
        if band is not None:
            im.paste(pal.blend_idx(fg, bg, level), xy, band)


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font at ``size`` px. Raises RuntimeError if Pillow lacks FreeType."""
    f = ImageFont.load_default(size=size)
    if not isinstance(f, ImageFont.FreeTypeFont):
        raise RuntimeError("Pillow was built without FreeType: the renderer needs its scalable font")
    return f


@dataclass(frozen=True)
class Glyphs:
    """A rendered string: coverage bands, their offset from the text origin, ink size and advance."""

    bands: Bands
    dx: int
    dy: int
    w: int
    h: int
    advance: int


# Game symbols the bundled font has no glyph for, spelled out so panels never show empty boxes.
SPELLED: dict[str, str] = {
    "➜": "move", "🔓": "unlock", "👊": "subdue", "📷": "camera", "💡": "idea", "🔍": "reveal",
    "💰": "loot", "🔊": "noise", "⚠": "alert", "🧩": "crack", "→": "->", "←": "<-", "✓": "ok",
    "×": "x", "★": "*",
}  # fmt: skip
_SPELL_RE = re.compile("(?:" + "|".join(map(re.escape, SPELLED)) + ")+")


def spell(text: str) -> str:
    """``text`` with the symbols of :data:`SPELLED` written as words (``next ⚠ at 10`` -> ``next alert at 10``).

    A run of symbols becomes space-separated words, set apart from letters and digits around it.
    """
    text = text.replace("\ufe0f", "")
    if not _SPELL_RE.search(text):
        return text

    def words(m: re.Match[str]) -> str:
        out = " ".join(SPELLED[ch] for ch in m.group(0))
        before = m.string[m.start() - 1] if m.start() else " "
        after = m.string[m.end()] if m.end() < len(m.string) else " "
        return (" " if before.isalnum() else "") + out + (" " if after.isalnum() else "")

    return _SPELL_RE.sub(words, text)


@lru_cache(maxsize=4096)
def glyphs(text: str, size: int) -> Glyphs:
    """``text`` rendered at ``size`` px (cached); symbols the font lacks are spelled out (:func:`spell`)."""
    text = spell(text)
    with _font_lock:
        f = font(size)
        x0, y0, x1, y1 = (int(v) for v in f.getbbox(text))
        advance = round(f.getlength(text))
        w, h = max(1, x1 - x0), max(1, y1 - y0)
        mask = Image.new("L", (w, h), 0)
        ImageDraw.Draw(mask).text((-x0, -y0), text, font=f, fill=255)
    return Glyphs(bands_of(mask), x0, y0, w, h, advance)


@lru_cache(maxsize=8192)
def text_width(text: str, size: int) -> int:
    """The advance width of ``text`` at ``size`` px (measured, not drawn)."""
    with _font_lock:
        return round(font(size).getlength(spell(text)))


def wrap(text: str, size: int, width: int) -> list[str]:
    """``text`` broken into lines no wider than ``width`` px at ``size`` px, only between words.

    A single word wider than a whole line is split with a hyphen (never silently cut). Never raises.
    """
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if text_width(trial, size) <= width:
            line = trial
            continue
        if line:
            lines.append(line)
        while text_width(word, size) > width and len(word) > 1:
            cut = len(word) - 1
            while cut > 1 and text_width(word[:cut] + "-", size) > width:
                cut -= 1
            lines.append(word[:cut] + "-")
            word = word[cut:]
        line = word
    if line:
        lines.append(line)
    return lines


def draw_text(
    im: Image.Image,
    pal: Palette,
    xy: tuple[float, float],
    text: str,
    size: int,
    fg: RGB,
    bg: RGB,
    anchor: str = "la",
) -> None:
    """Draw ``text`` antialiased over a known background colour.

    ``anchor``: "la" (x left, y top of the line), "ra" (x right, y top), "mm" (ink box centred on xy),
    "lm" (x left, ink centred vertically on y).
    """
    if not text:
        return
    g = glyphs(text, size)
    x, y = xy
    if anchor == "mm":
        px, py = x - g.w / 2, y - g.h / 2
    elif anchor == "lm":
        px, py = x + g.dx, y - g.h / 2
    elif anchor == "ra":
        px, py = x - g.advance + g.dx, y + g.dy
    else:
        px, py = x + g.dx, y + g.dy
    idx = tuple(-1 if b is None else pal.blend_idx(fg, bg, lv) for lv, b in zip(LEVELS, g.bands, strict=True))
    image, mask = _text_sprite(text, size, idx)
    im.paste(image, (round(px), round(py)), mask)


@lru_cache(maxsize=4096)
def _text_sprite(text: str, size: int, idx: tuple[int, ...]) -> tuple[Image.Image, Image.Image]:
    """``text``'s bands merged into one palette-index image and one mask: a single paste per line."""
    g = glyphs(text, size)
    image = Image.new("P", (g.w, g.h), 0)
    mask = Image.new("1", (g.w, g.h), 0)
    for band, colour in zip(g.bands, idx, strict=True):
        if band is not None:
            image.paste(colour, (0, 0), band)
            mask.paste(1, (0, 0), band)
    return image, mask


# -- shapes ------------------------------------------------------------------------------------------
def _shape(draw: ImageDraw.ImageDraw, shape: str, size: int, inset: float) -> None:
    """Fill ``shape`` into a ``size`` x ``size`` hi-res mask, inset by ``inset`` hi-res pixels."""
    lo, hi = inset, size - 1 - inset
    mid = (size - 1) / 2
    if shape == "square":
        pad = size * 0.07
        draw.rounded_rectangle((lo + pad, lo + pad, hi - pad, hi - pad), radius=size * 0.14, fill=255)
    elif shape == "diamond":
        r = mid - inset * 1.4142
        draw.polygon([(mid, mid - r), (mid + r, mid), (mid, mid + r), (mid - r, mid)], fill=255)
    elif shape == "hex":
        r = mid - inset * 1.1547
        a = r * 0.8660
        pts = [(mid - r, mid), (mid - r / 2, mid - a), (mid + r / 2, mid - a), (mid + r, mid)]
        pts += [(mid + r / 2, mid + a), (mid - r / 2, mid + a)]
        draw.polygon(pts, fill=255)
    else:
        draw.ellipse((lo, lo, hi, hi), fill=255)


@lru_cache(maxsize=512)
def shape_bands(shape: str, d: int, inset: float) -> Bands:
    """Coverage bands of a ``d`` px token ``shape`` inset by ``inset`` px."""
    big = Image.new("L", (d * SS, d * SS), 0)
    _shape(ImageDraw.Draw(big), shape, d * SS, inset * SS)
    return bands_of(big.reduce(SS))


@lru_cache(maxsize=64)
def hex_bands(s: int, h: int) -> Bands:
    """Coverage bands of a flat-topped hex tile with corner radius ``s`` and height ``h`` (1 px gap)."""
    w, hh = 2 * s + 1, h + 1
    big = Image.new("L", (w * SS, hh * SS), 0)
    k = 1 - 0.6 / (h / 2)
    cx, cy = s, h / 2
    pts = [(0, h / 2), (s / 2, 0), (3 * s / 2, 0), (2 * s, h / 2), (3 * s / 2, h), (s / 2, h)]
    pts = [((cx + (x - cx) * k) * SS + SS / 2, (cy + (y - cy) * k) * SS + SS / 2) for x, y in pts]
    ImageDraw.Draw(big).polygon(pts, fill=255)
    return bands_of(big.reduce(SS))


@lru_cache(maxsize=64)
def pointy_hex_bands(s: int, w: int) -> Bands:
    """Coverage bands of a pointy-topped hex tile with corner radius ``s`` and width ``w`` (1 px gap)."""
    ww, hh = w + 1, 2 * s + 1
    big = Image.new("L", (ww * SS, hh * SS), 0)
    k = 1 - 0.6 / (w / 2)
    cx, cy = w / 2, s
    pts = [(w / 2, 0), (w, s / 2), (w, 3 * s / 2), (w / 2, 2 * s), (0, 3 * s / 2), (0, s / 2)]
    pts = [((cx + (x - cx) * k) * SS + SS / 2, (cy + (y - cy) * k) * SS + SS / 2) for x, y in pts]
    ImageDraw.Draw(big).polygon(pts, fill=255)
    return bands_of(big.reduce(SS))

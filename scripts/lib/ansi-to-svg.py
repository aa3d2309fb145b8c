#!/usr/bin/env python3
"""A terminal screen as an SVG picture: reads what `tmux capture-pane -e -p` printed (text with
SGR colour escapes) on stdin and writes an SVG of it on stdout, a cell grid drawn in a monospace
font, each run of one style a <tspan> placed at its column, backgrounds as rectangles.

    tmux capture-pane -e -p -t NAME | scripts/lib/ansi-to-svg.py --title "conn top" > top.svg

Understood: SGR 0 (reset), 1 (bold), 2 (dim), 3 (italic), 4 (underline), 7 (reverse) and their
resets 22-27; colours 30-37, 90-97, 40-47, 100-107, 39/49, 256 colours (38;5;N) and true colour
(38;2;R;G;B). Other escapes are dropped. Used by scripts/render-screens."""
import argparse
import html
import re
import sys
import unicodedata

# The xterm palette (tango-like) for the 16 named colours, on a dark background.
PALETTE = ["#2e3436", "#cc0000", "#4e9a06", "#c4a000", "#3465a4", "#75507b", "#06989a", "#d3d7cf",
           "#555753", "#ef2929", "#8ae234", "#fce94f", "#729fcf", "#ad7fa8", "#34e2e2", "#eeeeec"]
FOREGROUND, BACKGROUND = "#d3d7cf", "#1e1f22"
CELL_W, CELL_H, FONT = 8.4, 17, 14


def colour_256(n):
    if n < 16:
        return PALETTE[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[n // 6 % 6], steps[n % 6])
    grey = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (grey, grey, grey)


class Style:
    def __init__(self):
        self.fg = self.bg = None
        self.bold = self.dim = self.italic = self.underline = self.reverse = False

    def copy(self):
        other = Style()
        other.__dict__.update(self.__dict__)
        return other

    def key(self):
        return tuple(sorted(self.__dict__.items()))

    def apply(self, codes):
        codes = codes or [0]
        i = 0
        while i < len(codes):
            c = codes[i]
            if c == 0:
                self.__init__()
            elif c == 1: self.bold = True
            elif c == 2: self.dim = True
            elif c == 3: self.italic = True
            elif c == 4: self.underline = True
            elif c == 7: self.reverse = True
            elif c == 22: self.bold = self.dim = False
            elif c == 23: self.italic = False
            elif c == 24: self.underline = False
            elif c == 27: self.reverse = False
            elif 30 <= c <= 37: self.fg = PALETTE[c - 30]
            elif 90 <= c <= 97: self.fg = PALETTE[c - 90 + 8]
            elif 40 <= c <= 47: self.bg = PALETTE[c - 40]
            elif 100 <= c <= 107: self.bg = PALETTE[c - 100 + 8]
            elif c == 39: self.fg = None
            elif c == 49: self.bg = None
            elif c in (38, 48) and i + 1 < len(codes):
                if codes[i + 1] == 5 and i + 2 < len(codes):
                    value = colour_256(codes[i + 2])
                    i += 2
                elif codes[i + 1] == 2 and i + 4 < len(codes):
                    value = "#%02x%02x%02x" % tuple(codes[i + 2:i + 5])
                    i += 4
                else:
                    value = None
                if c == 38: self.fg = value
                else: self.bg = value
            i += 1


def cells(line):
    """(character, style) per terminal cell of one captured line."""
    out, style = [], Style()
    for token in re.split(r"(\x1b\[[0-9;:]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\x1b.)", line):
        if not token:
            continue
        if token.startswith("\x1b"):
            if token.endswith("m") and token.startswith("\x1b["):
                style.apply([int(part) for part in re.split("[;:]", token[2:-1]) if part.isdigit()])
            continue
        for character in token:
            if unicodedata.category(character) in ("Cc", "Cf"):
                continue
            out.append((character, style.copy()))
            if unicodedata.east_asian_width(character) in ("W", "F"):
                out.append(("", style.copy()))  # the second cell of a wide character
    return out


def render(lines, columns, title):
    rows = len(lines)
    width, height = columns * CELL_W + 24, rows * CELL_H + 46
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
             f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" aria-label="{html.escape(title)}">',
             f"<title>{html.escape(title)}</title>",
             f'<rect width="100%" height="100%" rx="8" fill="{BACKGROUND}"/>',
             '<circle cx="18" cy="15" r="5" fill="#ff5f56"/><circle cx="34" cy="15" r="5" fill="#ffbd2e"/>'
             '<circle cx="50" cy="15" r="5" fill="#27c93f"/>',
             f'<text x="{width / 2:.0f}" y="19" fill="#888" font-family="sans-serif" font-size="12" '
             f'text-anchor="middle">{html.escape(title)}</text>',
             f'<g font-family="\'DejaVu Sans Mono\', \'Menlo\', \'Consolas\', monospace" font-size="{FONT}" '
             f'xml:space="preserve" transform="translate(12, 34)">']
    for row, line in enumerate(lines):
        grid = cells(line)
        y = row * CELL_H
        runs, column = [], 0
        for character, style in grid:  # runs of one style, with their first column
            if runs and runs[-1][2].key() == style.key():
                runs[-1][1].append(character)
            else:
                runs.append([column, [character], style])
            column += 1
        for start, characters, style in runs:
            fg, bg = style.fg or FOREGROUND, style.bg
            if style.reverse:
                fg, bg = bg or BACKGROUND, fg
            if bg:
                parts.append(f'<rect x="{start * CELL_W:.1f}" y="{y:.0f}" width="{len(characters) * CELL_W:.1f}" '
                             f'height="{CELL_H}" fill="{bg}"/>')
            text = "".join(characters)
            if not text.strip():
                continue
            attributes = f'fill="{fg}"'
            if style.bold: attributes += ' font-weight="bold"'
            if style.dim: attributes += ' opacity="0.6"'
            if style.italic: attributes += ' font-style="italic"'
            if style.underline: attributes += ' text-decoration="underline"'
            parts.append(f'<text x="{start * CELL_W:.1f}" y="{y + 13:.0f}" {attributes}>{html.escape(text)}</text>')
    parts += ["</g>", "</svg>"]
    return "\n".join(parts) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--title", default="conn")
    parser.add_argument("--columns", type=int, default=0, help="the screen's width (default: the longest line)")
    options = parser.parse_args()
    lines = sys.stdin.read().split("\n")
    while lines and not re.sub(r"\x1b\[[0-9;]*m", "", lines[-1]).strip():
        lines.pop()  # the empty rows below the last line
    columns = options.columns or max((len(cells(line)) for line in lines), default=1)
    sys.stdout.write(render(lines, columns, options.title))


if __name__ == "__main__":
    main()

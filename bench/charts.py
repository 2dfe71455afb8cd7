"""Charts of the performance page (nbs/10_performance.ipynb): plain SVG written without a plotting
library, kept here so that the page shows figures, not drawing code. Independent of `weburl_nb`."""
from __future__ import annotations

from html import escape
from itertools import pairwise
from math import log10


def bar_chart(groups: dict, ours: str = 'weburl_nb.url_to_canon_url', width: int = 720) -> str:
    "An SVG of horizontal bars: `groups` maps a title to `{contender: microseconds}`."
    bar, gap, label_w, pad = 18, 6, 250, 12
    top = max(v for g in groups.values() for v in g.values()) or 1
    scale = (width - label_w - 70) / top
    y, parts = pad, []
    for title, values in groups.items():
        parts.append(f'<text x="0" y="{y + 12}" font-weight="bold">{escape(title)}</text>')
        y += 20
        for name, v in sorted(values.items(), key=lambda kv: kv[1]):
            fill = '#1f3a5f' if name == ours else '#8fb3d9'
            dash = ' stroke="#333" stroke-dasharray="4 2"' if name.startswith('urllib') else ''
            parts.append(f'<text x="{label_w - 8}" y="{y + 13}" text-anchor="end">{escape(name)}</text>')
            parts.append(f'<rect x="{label_w}" y="{y}" width="{max(v * scale, 1):.1f}" height="{bar}" fill="{fill}"{dash}/>')
            parts.append(f'<text x="{label_w + v * scale + 6:.1f}" y="{y + 13}">{v:.2f} µs</text>')
            y += bar + gap
        y += pad
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y}" '
            f'font-family="sans-serif" font-size="12">{"".join(parts)}</svg>')



def _frame(width: int, height: int, left: int, right: int, top: int, bottom: int, xlabel: str,
           ylabel: str) -> list[str]:
    "The two axes of a chart and their titles, as SVG elements."
    return [f'<line x1="{left}" y1="{height - bottom}" x2="{width - right}" y2="{height - bottom}" stroke="#333"/>',
            f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - bottom}" stroke="#333"/>',
            f'<text x="{(left + width - right) / 2}" y="{height - 6}" text-anchor="middle">{xlabel}</text>',
            f'<text x="12" y="{(top + height - bottom) / 2}" text-anchor="middle" '
            f'transform="rotate(-90 12 {(top + height - bottom) / 2})">{ylabel}</text>']


def _log_scale(pts: list, width: int, height: int, left: int, right: int, top: int, bottom: int):
    "The logarithms of the least x, the least and the greatest y of `pts`, and the point of the plane of (x, y)."
    x0, x1 = log10(min(p[0] for p in pts)), log10(max(p[0] for p in pts))
    y0, y1 = log10(min(p[1] for p in pts)), log10(max(p[1] for p in pts))

    def xy(x, y):
        return (left + (log10(x) - x0) / ((x1 - x0) or 1) * (width - left - right),
                top + (y1 - log10(y)) / ((y1 - y0) or 1) * (height - top - bottom))
    return x0, y0, y1, xy


def _lines(lines: dict, xy, guide=None) -> list[str]:
    "Each line of `lines` (`guide`, if one of them, dashed and grey) with its points and its name at its end."
    colours = ['#1f3a5f', '#c0392b', '#27ae60', '#8e44ad', '#d68910', '#17a589']
    parts, labels = [], []
    for i, (name, line) in enumerate(lines.items()):
        colour = '#888' if line is guide else colours[i % len(colours)]
        style = 'stroke-dasharray="5 3"' if line is guide else 'stroke-width="2"'
        points = ' '.join('{:.1f},{:.1f}'.format(*xy(*p)) for p in line)
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" {style}/>')
        if line is not guide:
            parts += ['<circle cx="{:.1f}" cy="{:.1f}" r="3" fill="{}"/>'.format(*xy(*p), colour) for p in line]
        end_x, end_y = xy(*line[-1])
        labels.append([end_y + 4, name, colour, end_x + 8])
    labels.sort()
    for above, label in pairwise(labels):                    # keep the end labels 14 px apart
        label[0] = max(label[0], above[0] + 14)
    return parts + [f'<text x="{x:.1f}" y="{y:.1f}" fill="{colour}">{escape(name)}</text>'
                    for y, name, colour, x in labels]


def loglog_chart(series: dict, width: int = 720, height: int = 340) -> str:
    "An SVG of `series` (`{name: [(length, seconds), ...]}`) on log-log axes, with a dashed slope-one guide."
    short = min(line[0] for line in series.values())                 # the fastest shortest call
    guide = [(short[0], short[1] / 4), (max(p[0] for line in series.values() for p in line), 0.0)]
    guide[1] = (guide[1][0], guide[0][1] * guide[1][0] / guide[0][0])   # slope one: time proportional to length
    lines = {**series, '∝ length': guide}
    left, right, top, bottom = 70, 130, 12, 44
    x0, y0, y1, xy = _log_scale([p for line in lines.values() for p in line], width, height, left, right, top, bottom)
    parts = _frame(width, height, left, right, top, bottom, 'URL length', 'time per call')
    for length in sorted({p[0] for p in series[next(iter(series))]}):
        parts.append(f'<text x="{xy(length, 1)[0]:.1f}" y="{height - bottom + 16}" text-anchor="middle">'
                     f'{length / 1000:,.0f} KB</text>')
    for e in range(-7, 3):
        if y0 <= e <= y1:
            parts.append(f'<text x="{left - 6}" y="{xy(10 ** x0, 10 ** e)[1] + 4:.1f}" text-anchor="end">'
                         f'{10 ** e * 1e3:g} ms</text>')
    parts += _lines(lines, xy, guide)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'font-family="sans-serif" font-size="12">{"".join(parts)}</svg>')


def batch_chart(series: dict, mark: int | None = None, width: int = 720, height: int = 340) -> str:
    "An SVG of `series` (`{name: [(rows in a batch, µs per URL), ...]}`) on log-log axes; `mark`: a batch size."
    pts = [p for line in series.values() for p in line]
    left, right, top, bottom = 70, 170, 12, 44
    x0, y0, y1, xy = _log_scale(pts, width, height, left, right, top, bottom)
    x1 = log10(max(p[0] for p in pts))
    parts = _frame(width, height, left, right, top, bottom, 'URLs in a batch', 'CPU µs per URL')
    for rows in sorted({p[0] for p in pts}):
        parts.append(f'<text x="{xy(rows, 1)[0]:.1f}" y="{height - bottom + 16}" text-anchor="middle">{rows:,}</text>')
    for e in range(-3, 5):
        for m in (1, 3):
            if y0 <= log10(m * 10 ** e) <= y1:
                parts.append(f'<text x="{left - 6}" y="{xy(10 ** x0, m * 10 ** e)[1] + 4:.1f}" text-anchor="end">'
                             f'{m * 10 ** e:g}</text>')
    if mark is not None and x0 <= log10(mark) <= x1:
        x = xy(mark, 1)[0]
        parts.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{height - bottom}" stroke="#888" '
                     f'stroke-dasharray="5 3"/>')
    parts += _lines(series, xy)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'font-family="sans-serif" font-size="12">{"".join(parts)}</svg>')

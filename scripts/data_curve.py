#!/usr/bin/env python3
"""The data-size curve of docs/strength-log.md: Elo against recorded moves of training data.

Reads docs/data-curve.csv (one row per network: the share of data/'s games, the recorded
moves that share holds, the held-out loss, and its match against the common opponent as Elo
and the half-width of the 95% interval) and writes docs/data-curve.svg: Elo against log2 of
the moves, each point with its interval, and the least-squares line weighted by 1/error^2,
whose slope is the Elo a doubling of the data buys. Prints the slope.

    python3 scripts/data_curve.py docs/data-curve.csv docs/data-curve.svg
"""

import csv
import math
import sys


def fit(points):
    """Weighted least squares of elo on log2(moves): (slope, intercept, slope's std error)."""
    w = [1.0 / (p["error"] / 1.96) ** 2 for p in points]
    x = [math.log2(p["moves"]) for p in points]
    y = [p["elo"] for p in points]
    sw = sum(w)
    mx = sum(wi * xi for wi, xi in zip(w, x)) / sw
    my = sum(wi * yi for wi, yi in zip(w, y)) / sw
    sxx = sum(wi * (xi - mx) ** 2 for wi, xi in zip(w, x))
    sxy = sum(wi * (xi - mx) * (yi - my) for wi, xi, yi in zip(w, x, y))
    slope = sxy / sxx
    return slope, my - slope * mx, math.sqrt(1.0 / sxx)


def main(csv_path, svg_path):
    with open(csv_path, newline="") as f:
        points = [
            {k: float(v) for k, v in row.items() if k != "network"} | {"network": row["network"]}
            for row in csv.DictReader(f)
        ]
    if len(points) < 2:
        sys.exit("data_curve: at least two points are needed")
    slope, intercept, slope_error = fit(points)

    width, height, left, right, top, bottom = 760, 480, 80, 40, 70, 60
    xs = [math.log2(p["moves"]) for p in points]
    x_lo, x_hi = min(xs) - 0.5, max(xs) + 0.5
    ys = [p["elo"] + s * p["error"] for p in points for s in (-1, 1)]
    y_lo, y_hi = math.floor(min(ys) / 50) * 50, math.ceil(max(ys) / 50) * 50

    def px(x):
        return left + (x - x_lo) / (x_hi - x_lo) * (width - left - right)

    def py(y):
        return top + (y_hi - y) / (y_hi - y_lo) * (height - top - bottom)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="24" text-anchor="middle" font-size="15">'
        "Elo against the size of the training data (from scratch, the same shape)</text>",
        f'<text x="{width / 2}" y="44" text-anchor="middle" font-size="11" fill="#555555">'
        f"against the fifth network at 20,000 nodes a move; 95% intervals; weighted fit: "
        f"{slope:+.0f} +- {1.96 * slope_error:.0f} Elo per doubling</text>",
    ]
    for y in range(int(y_lo), int(y_hi) + 1, 50):
        out.append(
            f'<line x1="{left}" y1="{py(y):.1f}" x2="{width - right}" y2="{py(y):.1f}" '
            f'stroke="{"#999999" if y == 0 else "#e5e5e5"}"/>'
        )
        out.append(f'<text x="{left - 8}" y="{py(y) + 4:.1f}" text-anchor="end">{y:+d}</text>')
    # Ticks at 1M times a power of two.
    for k in range(math.ceil(x_lo - math.log2(1e6)), math.floor(x_hi - math.log2(1e6)) + 1):
        e = math.log2(1e6) + k
        label = f"{2.0 ** k:g}M"
        out.append(
            f'<line x1="{px(e):.1f}" y1="{top}" x2="{px(e):.1f}" y2="{height - bottom}" '
            'stroke="#e5e5e5"/>'
        )
        out.append(
            f'<text x="{px(e):.1f}" y="{height - bottom + 18}" text-anchor="middle">{label}</text>'
        )
    out.append(
        f'<text x="{(left + width - right) / 2}" y="{height - 16}" text-anchor="middle">'
        "recorded moves of data/ (log scale)</text>"
    )
    out.append(
        f'<text x="18" y="{(top + height - bottom) / 2}" text-anchor="middle" '
        f'transform="rotate(-90 18 {(top + height - bottom) / 2})">Elo</text>'
    )
    out.append(
        f'<clipPath id="plot"><rect x="{left}" y="{top}" width="{width - left - right}" '
        f'height="{height - top - bottom}"/></clipPath>'
    )
    out.append(
        f'<line x1="{px(x_lo):.1f}" y1="{py(intercept + slope * x_lo):.1f}" '
        f'x2="{px(x_hi):.1f}" y2="{py(intercept + slope * x_hi):.1f}" '
        'stroke="#1f77b4" stroke-dasharray="6 4" clip-path="url(#plot)"/>'
    )
    for p, x in zip(points, xs):
        cx, cy = px(x), py(p["elo"])
        lo, hi = py(p["elo"] - p["error"]), py(p["elo"] + p["error"])
        out.append(f'<line x1="{cx:.1f}" y1="{lo:.1f}" x2="{cx:.1f}" y2="{hi:.1f}" stroke="black"/>')
        for yy in (lo, hi):
            out.append(
                f'<line x1="{cx - 5:.1f}" y1="{yy:.1f}" x2="{cx + 5:.1f}" y2="{yy:.1f}" stroke="black"/>'
            )
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="4" fill="#d62728"/>')
        out.append(
            f'<text x="{cx + 8:.1f}" y="{cy + 16:.1f}" font-size="11">'
            f'{p["elo"]:+.0f} +- {p["error"]:.0f}</text>'
        )
    out.append("</svg>")
    with open(svg_path, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"{slope:+.1f} +- {1.96 * slope_error:.1f} Elo per doubling ({len(points)} points)")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])

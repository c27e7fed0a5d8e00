"""The tournament's bar chart: each bot's win rate with its 95% interval.

SVG is written directly (no dependency); PNG needs matplotlib, the optional
``plot`` extra (``pip install intrigue[plot]``).
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

COLOURS = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3", "#8C8C8C")


def save(report: dict[str, Any], path: str | Path) -> Path:
    """Write the chart of a tournament report (``Report.as_json()``) to ``.svg`` or ``.png``."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".svg":
        path.write_text(svg(report), encoding="utf-8")
    elif suffix == ".png":
        png(report, path)
    else:
        raise ValueError(f"--plot writes .svg or .png, not {path.name!r}")
    return path


def _title(report: dict[str, Any]) -> str:
    return (f"{report['game']}, {report['players']} players, {report['games']} games "
            f"(seed {report['seed']}): win rate, 95% CI")


def svg(report: dict[str, Any]) -> str:
    bots = report["bots"]
    width, height = max(360, 120 + 110 * len(bots)), 340
    left, right, top, bottom = 60, 20, 40, 60
    plot_w, plot_h = width - left - right, height - top - bottom

    def y(rate: float) -> float:
        return top + plot_h * (1 - rate)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="13">{escape(_title(report))}</text>']
    for tick in range(0, 11, 2):
        rate = tick / 10
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(rate):.1f}" y2="{y(rate):.1f}" '
                     f'stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{y(rate) + 4:.1f}" text-anchor="end">{tick * 10}%</text>')
    slot = plot_w / max(len(bots), 1)
    bar = min(70.0, slot * 0.6)
    for i, bot in enumerate(bots):
        x = left + slot * i + (slot - bar) / 2
        rate, (low, high) = bot["win_rate"], bot["ci95"]
        colour = COLOURS[i % len(COLOURS)]
        parts.append(f'<rect class="bar" x="{x:.1f}" y="{y(rate):.1f}" width="{bar:.1f}" '
                     f'height="{top + plot_h - y(rate):.1f}" fill="{colour}"><title>{escape(bot["bot"])}: '
                     f'{rate:.1%} [{low:.1%}, {high:.1%}]</title></rect>')
        centre = x + bar / 2
        parts.append(f'<g class="error" stroke="black"><line x1="{centre:.1f}" x2="{centre:.1f}" '
                     f'y1="{y(high):.1f}" y2="{y(low):.1f}"/><line x1="{centre - 8:.1f}" x2="{centre + 8:.1f}" '
                     f'y1="{y(high):.1f}" y2="{y(high):.1f}"/><line x1="{centre - 8:.1f}" x2="{centre + 8:.1f}" '
                     f'y1="{y(low):.1f}" y2="{y(low):.1f}"/></g>')
        fair = bot["even_share"]
        parts.append(f'<line x1="{x - 4:.1f}" x2="{x + bar + 4:.1f}" y1="{y(fair):.1f}" y2="{y(fair):.1f}" '
                     f'stroke="#444" stroke-dasharray="4 3"><title>even chance per seat</title></line>')
        parts.append(f'<text x="{centre:.1f}" y="{y(high) - 6:.1f}" text-anchor="middle">{rate:.1%}</text>')
        parts.append(f'<text x="{centre:.1f}" y="{top + plot_h + 18:.1f}" text-anchor="middle">'
                     f'{escape(bot["bot"])}</text>')
        parts.append(f'<text x="{centre:.1f}" y="{top + plot_h + 34:.1f}" text-anchor="middle" fill="#666">'
                     f'{bot["seats"]} seat{"s" if bot["seats"] != 1 else ""}</text>')
    parts.append(f'<line x1="{left}" x2="{left}" y1="{top}" y2="{top + plot_h}" stroke="black"/>')
    parts.append(f'<line x1="{left}" x2="{width - right}" y1="{top + plot_h}" y2="{top + plot_h}" stroke="black"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def png(report: dict[str, Any], path: Path) -> None:
    try:
        import matplotlib  # noqa: PLC0415

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # noqa: PLC0415
    except ImportError:
        raise ValueError("a .png chart needs matplotlib (pip install 'intrigue[plot]'); "
                         "or write an .svg, which needs nothing") from None
    bots = report["bots"]
    labels = [bot["bot"] for bot in bots]
    rates = [bot["win_rate"] for bot in bots]
    errors = [[r - bot["ci95"][0] for r, bot in zip(rates, bots)],
              [bot["ci95"][1] - r for r, bot in zip(rates, bots)]]
    figure, axes = plt.subplots(figsize=(max(4.0, 1.4 * len(bots) + 1.5), 3.6))
    axes.bar(labels, rates, yerr=errors, capsize=8, color=COLOURS[:len(bots)])
    for i, bot in enumerate(bots):
        fair = bot["even_share"]
        axes.hlines(fair, i - 0.45, i + 0.45, colors="#444", linestyles="dashed")
    axes.set_ylim(0, 1)
    axes.set_ylabel("win rate")
    axes.set_title(_title(report), fontsize=9)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def ratings_svg(report: dict[str, Any]) -> str:
    """The arena's chart: each agent's rating (OpenSkill mean) with its interval, best first."""
    rows = {row["agent"]: row for row in report["agents"]}
    agents = [rows[name] for name in report["order"]]
    low = min(row["interval"][0] for row in agents)
    high = max(row["interval"][1] for row in agents)
    low, high = low - 0.05 * (high - low + 1), high + 0.05 * (high - low + 1)
    width, height = max(360, 120 + 110 * len(agents)), 340
    left, right, top, bottom = 60, 20, 40, 60
    plot_w, plot_h = width - left - right, height - top - bottom

    def y(value: float) -> float:
        return top + plot_h * (1 - (value - low) / (high - low))

    title = (f"{report['game']}: OpenSkill rating, ± {report['interval_sigmas']:g} sigma "
             f"({report['deals']} deals × {report['rotations']} rotations)")
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="13">{escape(title)}</text>']
    step = max(1, round((high - low) / 6))
    tick = int(low) + 1
    while tick < high:
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick}</text>')
        tick += step
    slot = plot_w / max(len(agents), 1)
    for i, row in enumerate(agents):
        centre = left + slot * i + slot / 2
        mu, (bottom_value, top_value) = row["mu"], row["interval"]
        colour = COLOURS[i % len(COLOURS)]
        parts.append(f'<g class="rating"><title>{escape(row["agent"])}: {mu:.2f} '
                     f'[{bottom_value:.2f}, {top_value:.2f}]</title>'
                     f'<line x1="{centre:.1f}" x2="{centre:.1f}" y1="{y(top_value):.1f}" y2="{y(bottom_value):.1f}" '
                     f'stroke="{colour}" stroke-width="3"/>'
                     f'<circle cx="{centre:.1f}" cy="{y(mu):.1f}" r="6" fill="{colour}"/></g>')
        parts.append(f'<text x="{centre:.1f}" y="{y(top_value) - 6:.1f}" text-anchor="middle">{mu:.1f}</text>')
        parts.append(f'<text x="{centre:.1f}" y="{top + plot_h + 18:.1f}" text-anchor="middle">'
                     f'{escape(row["agent"])}</text>')
        parts.append(f'<text x="{centre:.1f}" y="{top + plot_h + 34:.1f}" text-anchor="middle" fill="#666">'
                     f'{row["win_rate"]:.0%} won</text>')
    parts.append(f'<line x1="{left}" x2="{left}" y1="{top}" y2="{top + plot_h}" stroke="black"/>')
    parts.append(f'<line x1="{left}" x2="{width - right}" y1="{top + plot_h}" y2="{top + plot_h}" stroke="black"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"

"""The /progress chart: the last 30 days as a PNG (matplotlib, Agg, no pyplot).

Discreet by design: the title is "Last 30 days", the legend names no one and nothing
that gives the topic away.
"""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from flows.progress import Progress

TITLE = "Last 30 days"
GOOD = "#4c9a6a"
SETBACK = "#e0a03a"
HELD = "#5b7fb5"
LOGGED = "#b7c3d6"
MOOD = "#7a5ea8"


def figure(progress: Progress) -> Figure:
    """The last 30 days: what was held off and logged each day, good days and
    setbacks along the bottom, and the check-in mood when given."""
    days = progress.days
    x = list(range(len(days)))
    fig = Figure(figsize=(8, 4), dpi=100)
    FigureCanvasAgg(fig)
    axes = fig.add_subplot(1, 1, 1)
    held = [d.held for d in days]
    logged = [d.logged for d in days]
    axes.bar(x, held, color=HELD, label="held off", width=0.7)
    axes.bar(x, logged, bottom=held, color=LOGGED, label="logged", width=0.7)
    top = max([h + g for h, g in zip(held, logged, strict=True)] + [3])
    strip = -0.06 * top
    good = [i for i, d in enumerate(days) if d.tracked and not d.relapse]
    setback = [i for i, d in enumerate(days) if d.relapse]
    axes.scatter(good, [strip] * len(good), marker="s", s=40, color=GOOD, label="good day")
    axes.scatter(setback, [strip] * len(setback), marker="s", s=40, color=SETBACK, label="setback")
    axes.set_ylim(strip * 2.2, top * 1.15)
    axes.set_ylabel("count")
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    ticks = [i for i in x if (len(days) - 1 - i) % 5 == 0]
    axes.set_xticks(ticks, [days[i].day.strftime("%d %b") for i in ticks])
    axes.set_xlim(-0.8, len(days) - 0.2)
    axes.spines[["top", "right"]].set_visible(False)
    handles, labels = axes.get_legend_handles_labels()
    moods = [(i, d.mood) for i, d in enumerate(days) if d.mood is not None]
    if moods:
        mood_axes = axes.twinx()
        mood_axes.plot(
            [i for i, _ in moods], [m for _, m in moods], color=MOOD, marker="o", label="mood"
        )
        mood_axes.set_ylim(0.5, 5.5)
        mood_axes.set_yticks([1, 2, 3, 4, 5])
        mood_axes.set_ylabel("mood")
        mood_axes.spines[["top"]].set_visible(False)
        more_handles, more_labels = mood_axes.get_legend_handles_labels()
        handles += more_handles
        labels += more_labels
    axes.legend(
        handles,
        labels,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.1),
        fontsize="small",
        ncols=5,
        frameon=False,
    )
    axes.set_title(TITLE)
    fig.tight_layout()
    return fig


def render(progress: Progress) -> bytes:
    """The chart as PNG bytes."""
    out = io.BytesIO()
    figure(progress).savefig(out, format="png")
    return out.getvalue()

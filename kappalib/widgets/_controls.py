"""Controls shared by the explorers (ipywidgets is imported only when one is built).

The controls themselves (ranges, steps, defaults, options, presets) are written once, in
``explorers.json`` beside this module: the Jupyter explorers read it here, and the static
page's explorers (``book/_static/explorers/``) read the same file, bundled into the site by
``tools/explorers_build.py``.
"""

from __future__ import annotations

import functools
import json
from importlib import resources


@functools.cache
def _definitions() -> dict:
    text = resources.files(__package__).joinpath("explorers.json").read_text(encoding="utf-8")
    return json.loads(text)["explorers"]


def explorer_definition(name: str) -> dict:
    """The definition of one explorer's controls, as the widget and the web page read it.

    Parameters
    ----------
    name : {"two_by_two", "prevalence", "weighted", "mcc_family", "families", "coefficients"}
        The explorer (chapters 02, 04, 05, 07, 08 and 10).

    Returns
    -------
    dict
        A fresh copy of its entry in ``explorers.json``: ``"python"`` (the explorer
        function), ``"figure"`` (the chapter's static figure of it), ``"controls"`` (each
        with its ``name``, ``label``, ``kind`` and range, step or options, and ``default``)
        and, where it has them, ``"presets"`` and example tables.

    Raises
    ------
    ValueError
        For an unknown name.

    Examples
    --------
    >>> from kappalib.widgets import explorer_definition
    >>> [c["label"] for c in explorer_definition("two_by_two")["controls"]]
    ['a (TP)', 'b (FN)', 'c (FP)', 'd (TN)']
    >>> explorer_definition("two_by_two")["presets"][1]
    {'label': 'b = c = 0', 'values': {'a': 10, 'b': 0, 'c': 0, 'd': 10}}
    """
    definitions = _definitions()
    if name not in definitions:
        raise ValueError(f"name must be one of {sorted(definitions)}, got {name!r}")
    return json.loads(json.dumps(definitions[name]))


def control(explorer: str, name: str) -> dict:
    """One control of an explorer's definition, by its name."""
    for entry in explorer_definition(explorer)["controls"]:
        if entry["name"] == name:
            return entry
    raise ValueError(f"explorer {explorer!r} has no control {name!r}")


def rate_slider(value, description, low=0.0, high=1.0, step=0.01):
    """A slider for a rate in [low, high] (steps of 0.01), named by its description.

    The description is the control's accessible name; the value is clipped into the range.
    """
    import ipywidgets as widgets

    return widgets.FloatSlider(
        value=min(max(value, low), high),
        min=low,
        max=high,
        step=step,
        description=description,
        readout_format=".2f",
        style={"description_width": "initial"},
    )


def fmt(value, spec=".3f"):
    """A value for a readout: ``"undefined"`` for None (a 0/0 statistic), else formatted."""
    return "undefined" if value is None else format(value, spec)


def check_rate(value, name):
    """A rate in [0, 1] as a float, or one sentence naming the argument."""
    import numpy as np

    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number between 0 and 1, got {value!r}")
    value = float(value)
    if not (0.0 <= value <= 1.0):
        raise ValueError(f"{name} must be between 0 and 1, got {value!r}")
    return value


def blit_png(canvas, background, artists, *, rgb=False):
    """Redraw only the moving parts and encode the canvas as PNG bytes.

    The static background (``canvas.copy_from_bbox``) is restored, each artist is drawn on
    its axes (or its figure, for a figure text), and the pixels are encoded at zlib level 1:
    the image is shown once and thrown away, and level 6 costs twice as long.
    """
    import io

    import numpy as np
    from PIL import Image

    canvas.restore_region(background)
    for artist in artists:
        (artist.axes or artist.figure).draw_artist(artist)
    image = Image.fromarray(np.asarray(canvas.buffer_rgba()))
    if rgb:
        image = image.convert("RGB")
    buffer = io.BytesIO()
    image.save(buffer, format="png", compress_level=1)
    return buffer.getvalue()


def defined_slider(explorer: str, name: str, value):
    """The slider of ``explorers.json``'s control ``name`` of ``explorer``, at ``value``."""
    entry = control(explorer, name)
    return rate_slider(value, entry["label"], entry["min"], entry["max"], entry["step"])


def defaults(explorer: str) -> dict:
    """The default value of every control of an explorer, by name."""
    return {c["name"]: c["default"] for c in explorer_definition(explorer)["controls"]}

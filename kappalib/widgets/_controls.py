"""Controls shared by the explorers (ipywidgets is imported only when one is built)."""

from __future__ import annotations


def rate_slider(value, description, low=0.0, high=1.0):
    """A slider for a rate in [low, high] (steps of 0.01), named by its description.

    The description is the control's accessible name; the value is clipped into the range.
    """
    import ipywidgets as widgets

    return widgets.FloatSlider(
        value=min(max(value, low), high),
        min=low,
        max=high,
        step=0.01,
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

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

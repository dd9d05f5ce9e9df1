"""Interactive explorers for the notebooks (ipywidgets is imported only here).

Each explorer is split in two: a pure ``*_values`` / ``*_state`` function that computes
what the widget shows (unit-tested without a display), and a function that builds the
sliders and redraws.  Every chapter puts a static figure of the same function before the
widget, so the HTML page reads well without a kernel.

One module per explorer, so that chapters do not edit each other's code (``ARCHITECTURE.md``
maps them).

Each explorer's controls (ranges, steps, defaults, options, presets) are written once, in
``explorers.json`` (:func:`explorer_definition`); the book's web page builds its live
explorers from the same file (``book/_static/explorers/``).
"""

import importlib.util

# kappalib's core needs numpy alone; the explorers need the widgets extra.  find_spec looks
# without importing, so ipywidgets is still imported only where an explorer is built.
for _name in ("matplotlib", "ipywidgets"):
    if importlib.util.find_spec(_name) is None:
        raise ImportError(
            f'kappalib.widgets needs {_name}, which comes with: pip install "kappalib[widgets]"'
        )
del _name

from ._controls import explorer_definition as explorer_definition  # noqa: E402
from ._family_explorer import *  # noqa: E402, F403
from ._mcc_families import *  # noqa: E402, F403
from ._prevalence import *  # noqa: E402, F403
from ._six_coefficients import *  # noqa: E402, F403
from ._two_by_two import *  # noqa: E402, F403
from ._weighted import *  # noqa: E402, F403

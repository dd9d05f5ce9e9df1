"""tools/book_config.py: the configuration of a build that reuses the committed outputs.

``make book EXECUTE=off`` (what .ci/run builds after nbval) shows the committed outputs, so
the script must refuse a chapter that is not committed executed, in order, from the top; and
the configuration it writes must be _config.yml with only the execution mode changed.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.toolchain

ROOT = Path(__file__).resolve().parents[1]


def _tool():
    spec = importlib.util.spec_from_file_location("book_config", ROOT / "tools" / "book_config.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _book_with(tmp_path: Path, chapter: str, edit) -> Path:
    """A copy of one committed chapter under tmp_path/book/, edited by ``edit(cells)``."""
    (tmp_path / "book").mkdir()
    nb = json.loads((ROOT / "book" / chapter).read_text())
    edit([c for c in nb["cells"] if c["cell_type"] == "code"])
    (tmp_path / "book" / chapter).write_text(json.dumps(nb))
    return tmp_path


def test_every_committed_chapter_is_executed_in_order():
    assert _tool().unexecuted() == []


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda cells: cells[2].update(execution_count=None), "code cell 3 of"),
        (lambda cells: cells[1].update(execution_count=7), "code cell 2 of"),
        (lambda cells: [c.update(execution_count=None) for c in cells], "code cell 1 of"),
        (
            lambda cells: cells[3]["outputs"].append(
                {"output_type": "error", "ename": "E", "evalue": "", "traceback": []}
            ),
            "code cell 4 stores an error output",
        ),
    ],
    ids=["one cell not run", "out of order", "stripped", "an error"],
)
def test_a_chapter_not_committed_executed_is_refused(tmp_path, edit, words):
    root = _book_with(tmp_path, "02_chance_correction.ipynb", edit)
    problems = _tool().unexecuted(root)
    assert len(problems) == 1 and words in problems[0], problems


def test_the_configuration_changes_only_the_execution_mode(tmp_path):
    import yaml

    tool = _tool()
    book = yaml.safe_load((ROOT / "_config.yml").read_text())
    written = tool.config("off")
    assert written["execute"]["execute_notebooks"] == "off"
    assert book["execute"]["execute_notebooks"] == "force"  # make book executes
    extensions = written["sphinx"].pop("local_extensions")
    for name, folder in book["sphinx"].pop("local_extensions").items():
        assert Path(extensions[name]) == (ROOT / folder).resolve()
    written["execute"]["execute_notebooks"] = "force"
    assert written == book
    out = tmp_path / "config-off" / "_config.yml"
    assert tool.main(["--execute", "off", "--out", str(out)]) == 0
    assert yaml.safe_load(out.read_text())["execute"]["execute_notebooks"] == "off"


def test_off_fails_before_writing_when_a_chapter_is_not_executed(tmp_path, monkeypatch, capsys):
    tool = _tool()
    root = _book_with(
        tmp_path, "02_chance_correction.ipynb", lambda c: c[0].update(execution_count=None)
    )
    shutil.copy(ROOT / "_config.yml", root / "_config.yml")
    monkeypatch.setattr(tool, "ROOT", root)
    out = tmp_path / "out" / "_config.yml"
    assert tool.main(["--execute", "off", "--out", str(out)]) == 1
    assert not out.exists()
    assert "jupyter execute --inplace book/02_chance_correction.ipynb" in capsys.readouterr().out

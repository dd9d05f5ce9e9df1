"""Publishing: ``make publish-config`` leaves no placeholder, and Binder's environment works.

The placeholder test runs the real target in a copy of the tracked tree (a temporary git
repository) and scans every tracked file itself, with its own pattern, for the placeholder
owner and hub.  For the built site it checks the Sphinx configuration that Jupyter Book
derives from ``_config.yml`` (``jupyter-book config sphinx``): the repository, issues and
launch buttons of every page are made from those values, and every other page's text comes
from a tracked file already scanned.  That takes seconds; a full build takes minutes and
proves nothing more about these URLs.

The Binder test builds a fresh virtual environment the way repo2docker does (``pip install -r
binder/requirements.txt`` and ``binder/postBuild``, both from the repository root), checks
that every chapter's imports are there, and runs chapter 02's imports and explorer cells (its
widgets) in it.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat
import pytest
import yaml

import kappalib

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import wheelhouse  # noqa: E402  (tools/)

pytestmark = [pytest.mark.toolchain, pytest.mark.slow]

PLACEHOLDER = re.compile(r"\bOWNER\b|jupyterhub\.example\.org")
# These two name the placeholders on purpose.
SELF = {"tools/publish_config.py", "tests/test_publish.py"}
# A link (or a script, an image) to a placeholder, in built HTML.
DEAD_LINK = re.compile(r"""(?:href|src|action)=["'][^"']*(?:/OWNER/|jupyterhub\.example\.org)""")
REPO = "agreement-lab/kappa-course"
HUB = "https://hub.agreement-lab.edu"


def _tracked(root: Path) -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return sorted(n for n in set(out.split("\0")) if n and (root / n).is_file())


def _clone(tmp_path: Path) -> Path:
    """The tracked tree (with uncommitted edits) as a fresh git repository."""
    clone = tmp_path / "clone"
    for name in _tracked(ROOT):
        (clone / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, clone / name)
    subprocess.run(["git", "init", "-q"], cwd=clone, check=True)
    subprocess.run(["git", "add", "-A"], cwd=clone, check=True)
    return clone


def _placeholders(root: Path) -> list[str]:
    found = []
    for name in _tracked(root):
        if name in SELF:
            continue
        try:
            text = (root / name).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        found += [
            f"{name}:{i}" for i, line in enumerate(text.splitlines(), 1) if PLACEHOLDER.search(line)
        ]
    return found


def _make_publish(clone: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["make", "-s", "publish-config", f"PYTHON={sys.executable}", *args],
        cwd=clone,
        capture_output=True,
        text=True,
        check=False,
    )


def _sphinx_conf(clone: Path) -> str:
    jupyter_book = Path(sys.executable).parent / "jupyter-book"
    subprocess.run([jupyter_book, "config", "sphinx", str(clone)], capture_output=True, check=True)
    return (clone / "conf.py").read_text()


def _install_cells(clone: Path) -> list[str]:
    cells = []
    for path in sorted((clone / "book").glob("[0-9][0-9]_*.ipynb")):
        nb = json.loads(path.read_text())
        cells += [
            "".join(c["source"]) for c in nb["cells"] if "%pip install" in "".join(c["source"])
        ]
    return cells


def test_publish_config_leaves_no_placeholder(tmp_path):
    clone = _clone(tmp_path)
    before = _placeholders(clone)
    assert any(p.startswith("_config.yml:") for p in before), before  # not a vacuous test
    assert any(p.startswith("CITATION.cff:") for p in before), before

    proc = _make_publish(clone, f"REPO={REPO}", f"HUB={HUB}")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert _placeholders(clone) == []

    url = f"https://github.com/{REPO}"
    config = yaml.safe_load((clone / "_config.yml").read_text())
    assert config["repository"]["url"] == url
    assert config["launch_buttons"]["jupyterhub_url"] == HUB
    assert yaml.safe_load((clone / "CITATION.cff").read_text())["repository-code"] == url
    cells = _install_cells(clone)
    chapters = list((clone / "book").glob("[0-9][0-9]_*.ipynb"))
    assert len(cells) == len(chapters) > 0
    assert all(f'"kappalib[widgets] @ git+{url}"' in cell for cell in cells), cells
    assert url in (clone / "README.md").read_text()

    # The built site's URLs come from this configuration.
    conf = _sphinx_conf(clone)
    assert not PLACEHOLDER.search(conf)
    assert f"'repository_url': '{url}'" in conf
    assert f"'jupyterhub_url': '{HUB}'" in conf

    # Again, elsewhere and without a hub: everything moves, the JupyterHub button goes.
    proc = _make_publish(clone, "REPO=someone-else/kappa-honestly", "BRANCH=gh-source")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    config = yaml.safe_load((clone / "_config.yml").read_text())
    assert config["repository"] == {
        "url": "https://github.com/someone-else/kappa-honestly",
        "path_to_book": "",
        "branch": "gh-source",
    }
    assert "jupyterhub_url" in config["launch_buttons"]  # set above, kept
    for name in _tracked(clone):
        if name not in SELF and (clone / name).suffix in {".ipynb", ".yml", ".cff", ".md"}:
            assert REPO not in (clone / name).read_text(encoding="utf-8"), name


def test_publish_config_without_hub_drops_the_button(tmp_path):
    clone = _clone(tmp_path)
    proc = _make_publish(clone, f"REPO={REPO}")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert _placeholders(clone) == []
    config = yaml.safe_load((clone / "_config.yml").read_text())
    assert "jupyterhub_url" not in config["launch_buttons"]
    assert config["launch_buttons"]["binderhub_url"] == "https://mybinder.org"
    assert "'jupyterhub_url': ''" in _sphinx_conf(clone)  # empty: the theme shows no button


def test_publish_config_rejects_a_bad_repo_in_one_sentence(tmp_path):
    clone = _clone(tmp_path)
    proc = _make_publish(clone, "REPO=not a repository")
    assert proc.returncode != 0
    assert "REPO must look like owner/name" in proc.stderr and "'not a repository'" in proc.stderr
    assert _placeholders(clone) == _placeholders(ROOT)  # nothing was rewritten
    proc = _make_publish(clone)
    assert proc.returncode != 0 and "usage: make publish-config REPO=" in proc.stdout


def test_citation_names_the_version_and_both_licences():
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert str(citation["version"]) == kappalib.__version__
    assert citation["license"] == "MIT"  # the software: kappalib and the notebooks' code
    assert "CC BY 4.0" in citation["abstract"]  # the text (CFF's license is one SPDX id)


def test_footer_names_the_version_and_both_licence_files():
    """The footer of every page: a version that is kappalib's, and links to licence files
    that exist (the text's licence is the CC BY 4.0 legal code, the code's MIT)."""
    footer = yaml.safe_load((ROOT / "_config.yml").read_text())["html"]["extra_footer"]
    assert f"version {kappalib.__version__} (" in footer
    # It names the files (no link into the repository: an unpublished copy has none).
    for name in ("LICENSE", "LICENSE-CC-BY-4.0"):
        assert re.search(rf"\b{re.escape(name)}\b", footer), name
        assert (ROOT / name).is_file(), name
    assert "https://creativecommons.org/licenses/by/4.0/" in footer
    assert "https://opensource.org/license/mit" in footer
    assert "github.com" not in footer
    text = (ROOT / "LICENSE-CC-BY-4.0").read_text()
    assert text.startswith("Creative Commons Attribution 4.0 International\n")
    assert "Section 8 – Interpretation." in text  # the whole legal code, not a stub
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")


def _pins(path: Path) -> dict[str, str]:
    return dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", path.read_text(), re.M))


def test_binder_pins_are_the_books_pins():
    binder, book = _pins(ROOT / "binder" / "requirements.txt"), _pins(ROOT / "requirements.txt")
    assert binder, "binder/requirements.txt pins nothing"
    assert {name: book.get(name) for name in binder} == binder


def _chapter_imports() -> set[str]:
    """Top-level modules imported by the chapters' code cells (magics skipped)."""
    names = set()
    for path in sorted((ROOT / "book").glob("[0-9][0-9]_*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type != "code":
                continue
            lines = [
                ln for ln in cell.source.splitlines() if not ln.lstrip().startswith(("%", "!"))
            ]
            for node in ast.walk(ast.parse("\n".join(lines))):
                if isinstance(node, ast.Import):
                    names |= {a.name.split(".")[0] for a in node.names}
                elif isinstance(node, ast.ImportFrom) and node.level == 0:
                    names.add(node.module.split(".")[0])
    return names


def test_binder_environment_runs_a_widget_chapter(tmp_path):
    clone = _clone(tmp_path)
    runtime = (clone / "binder" / "runtime.txt").read_text().strip()
    assert runtime == f"python-{sys.version_info.major}.{sys.version_info.minor}", runtime
    env_dir = tmp_path / "binder-env"
    subprocess.run([sys.executable, "-m", "venv", env_dir], check=True)
    python = env_dir / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    env["PATH"] = f"{env_dir / 'bin'}{os.pathsep}{env['PATH']}"
    # repo2docker's pip commands install the same pinned wheels from the wheelhouse
    # (tools/wheelhouse.py), without reading the index's pages.
    wheelhouse.fill([clone / "binder" / "requirements.txt"], wheelhouse.build_requires(clone))
    env = wheelhouse.offline(env)

    def run(*cmd, cwd=clone):
        proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)
        assert proc.returncode == 0, f"{cmd}:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
        return proc.stdout

    # What repo2docker's Python build pack runs, from the repository root.
    run(str(python), "-m", "pip", "install", "--quiet", "-r", "binder/requirements.txt")
    postbuild = clone / "binder" / "postBuild"
    postbuild.chmod(postbuild.stat().st_mode | stat.S_IXUSR)
    run("./binder/postBuild")
    run(str(python), "-m", "pip", "check")
    # The kernel the chapters name, registered in the environment itself.
    spec = json.loads((env_dir / "share/jupyter/kernels/kappa-honestly/kernel.json").read_text())
    assert Path(spec["argv"][0]).is_relative_to(env_dir), spec

    probe = textwrap.dedent(
        """
        import importlib, pathlib, sys
        for name in sys.argv[1:]:
            importlib.import_module(name)
        import kappalib
        print(pathlib.Path(kappalib.__file__).resolve())
        """
    )
    # From outside the checkout, as a kernel in book/ imports it.
    where = run(str(python), "-c", probe, *sorted(_chapter_imports()), cwd=tmp_path).strip()
    assert Path(where).is_relative_to(env_dir.resolve()), where  # installed, not the checkout

    kernels = tmp_path / "jupyter" / "kernels" / "binder"
    kernels.mkdir(parents=True)
    argv = [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    spec = {"argv": argv, "display_name": "binder", "language": "python"}
    (kernels / "kernel.json").write_text(json.dumps(spec))
    # Not the whole chapter (nbval and the wheel check execute every chapter already): its
    # imports cell and its explorer cells, which are what Binder adds (a live widget kernel).
    source = nbformat.read(clone / "book" / "02_chance_correction.ipynb", as_version=4)
    code = [c for c in source.cells if c.cell_type == "code"]
    imports = next(c for c in code if "import kappalib as kl" in c.source)
    explorers = [c for c in code if "nbval-ignore-output" in c.metadata.get("tags", [])]
    assert explorers, "chapter 02 has no explorer cell"
    chapter = clone / "book" / "binder_probe.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[imports, *explorers]), chapter)
    runner = textwrap.dedent(
        """
        import sys, nbformat
        from nbclient import NotebookClient
        nb = nbformat.read(sys.argv[1], as_version=4)
        resources = {"metadata": {"path": sys.argv[2]}}
        NotebookClient(nb, kernel_name="binder", timeout=180, resources=resources).execute()
        nbformat.write(nb, sys.argv[1])
        """
    )
    env["JUPYTER_PATH"] = str(tmp_path / "jupyter")
    env["PATH"] = os.environ["PATH"]  # the runner is the course's nbclient, the kernel Binder's
    run(sys.executable, "-c", runner, str(chapter), str(chapter.parent))
    nb = nbformat.read(chapter, as_version=4)
    widget_views = [
        output
        for cell in nb.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if "application/vnd.jupyter.widget-view+json" in output.get("data", {})
    ]
    assert widget_views, "chapter 02's explorers made no widget in the Binder environment"


# --- an unpublished copy ships no dead link --------------------------------------------------


def _tools():
    sys.path.insert(0, str(ROOT / "tools"))
    import publish_config

    return publish_config


def _theme_options(clone: Path) -> dict:
    """html_theme_options as the build sees them: Jupyter Book's conf.py, then the hook of
    tools/offline_assets.py that runs at config-inited."""
    namespace: dict = {}
    exec(compile(_sphinx_conf(clone), "conf.py", "exec"), namespace)

    class Config:
        html_theme_options = namespace["html_theme_options"]

    _tools()
    import offline_assets

    offline_assets.drop_unpublished_buttons(None, Config)
    return Config.html_theme_options


def test_unpublished_copy_builds_no_link_to_a_placeholder(tmp_path):
    clone = _clone(tmp_path)
    assert any(p.startswith("_config.yml:") for p in _placeholders(clone))  # unpublished
    options = _theme_options(clone)
    assert not PLACEHOLDER.search(repr(options)), options
    assert options["use_repository_button"] is False and options["use_issues_button"] is False
    launch = options["launch_buttons"]
    assert launch["binderhub_url"] == launch["colab_url"] == launch["jupyterhub_url"] == ""
    assert _tools().launchers(clone / "_config.yml") == ()  # what check_site expects

    # Everything else on a page comes from the book's sources: none names a placeholder
    # where the page shows it (the install cell, tagged remove-cell, is not on the page).
    shown = []
    for path in sorted((clone / "book").rglob("*")):
        rel = path.relative_to(clone).as_posix()
        if path.suffix == ".ipynb":
            for i, cell in enumerate(nbformat.read(path, as_version=4).cells):
                tags = set(cell.metadata.get("tags", []))
                if "remove-cell" not in tags and PLACEHOLDER.search(cell.source):
                    shown.append(f"{rel} cell {i}")
        elif path.suffix in {".md", ".html", ".css", ".js", ".bib"}:
            if PLACEHOLDER.search(path.read_text(encoding="utf-8")):
                shown.append(rel)
    assert shown == []


def test_published_copy_keeps_its_buttons(tmp_path):
    clone = _clone(tmp_path)
    tools = _tools()
    assert _make_publish(clone, f"REPO={REPO}", f"HUB={HUB}").returncode == 0
    options = _theme_options(clone)
    assert options["repository_url"] == f"https://github.com/{REPO}"
    assert options["use_repository_button"] is True and options["use_issues_button"] is True
    launch = options["launch_buttons"]
    assert launch["binderhub_url"] == "https://mybinder.org"
    assert launch["colab_url"] == "https://colab.research.google.com"
    assert launch["jupyterhub_url"] == HUB
    assert tools.launchers(clone / "_config.yml") == ("Binder", "Colab", "JupyterHub")
    # A repository with the placeholder hub left by hand: the hub button alone goes.
    config = clone / "_config.yml"
    config.write_text(config.read_text().replace(HUB, "https://jupyterhub.example.org"))
    assert tools.launchers(config) == ("Binder", "Colab")
    assert _theme_options(clone)["launch_buttons"]["jupyterhub_url"] == ""


def _install_cell(path: Path) -> str:
    cells = [c.source for c in nbformat.read(path, as_version=4).cells if "SOURCE =" in c.source]
    assert len(cells) == 1, path
    return cells[0]


def _run_install_cell(source: str, monkeypatch) -> tuple[BaseException | None, list[str]]:
    """Run the cell in a real IPython shell where kappalib is missing; %pip only records."""
    import importlib.util

    from IPython.core.interactiveshell import InteractiveShell

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "kappalib" else real(name, *a)
    )
    shell = InteractiveShell.instance()
    calls = []
    shell.register_magic_function(calls.append, "line", "pip")
    result = shell.run_cell(source, silent=True)
    return result.error_in_exec, calls


def test_install_cell_says_what_to_do_until_published(tmp_path, monkeypatch):
    clone = _clone(tmp_path)
    chapter = clone / "book" / "02_chance_correction.ipynb"
    error, calls = _run_install_cell(_install_cell(chapter), monkeypatch)
    assert calls == []  # no pip, no git clone of a placeholder repository
    assert isinstance(error, ModuleNotFoundError)
    message = str(error)
    assert message.count(". ") == 0 and message.endswith(".")  # one sentence
    assert "make lab" in message and "pip install" in message

    assert _make_publish(clone, f"REPO={REPO}").returncode == 0
    source = _install_cell(chapter)
    assert "/OWNER/" not in source
    json.loads(chapter.read_text())  # still a notebook
    error, calls = _run_install_cell(source, monkeypatch)
    assert error is None
    assert calls == [f'install --quiet "kappalib[widgets] @ git+https://github.com/{REPO}"']


def _stale(build: Path) -> bool:
    built = (build / "index.html").stat().st_mtime
    sources = [ROOT / "_config.yml", ROOT / "_toc.yml", *(ROOT / "book").rglob("*")]
    return any(p.is_file() and p.stat().st_mtime > built for p in sources)


def test_built_site_links_to_no_placeholder():
    """The HTML of the last ``make book``, when there is one and it is current."""
    build = ROOT / "_build" / "html"
    if not (build / "index.html").is_file():
        pytest.skip("no _build/html (make book builds it)")
    if _stale(build):
        pytest.skip("_build/html is older than the book's sources; make book rebuilds it")
    published = not _tools().launchers(ROOT / "_config.yml") == ()
    dead = []
    for page in sorted(build.rglob("*.html")):
        text = page.read_text(encoding="utf-8", errors="replace")
        dead += [f"{page.relative_to(build)}: {m.group(0)}" for m in DEAD_LINK.finditer(text)]
        if not published and "github.com/OWNER" in text:
            dead.append(f"{page.relative_to(build)}: names github.com/OWNER")
    assert dead == [], dead[:5]

"""Point the course at its published repository: ``make publish-config REPO=owner/name``.

The checkout names a placeholder repository, ``https://github.com/OWNER/kappa-honestly``, and
a placeholder JupyterHub, ``https://jupyterhub.example.org``.  This rewrites, in every tracked
text file (``git ls-files``; new chapters are found without a list):

* the repository URL: ``_config.yml`` (the repository, issues, Binder and Colab buttons),
  ``CITATION.cff``, the install cell of every chapter, the README, ``binder/``;
* ``_config.yml``'s ``repository: branch`` when ``--branch`` is given;
* ``launch_buttons: jupyterhub_url``: set to ``--hub``, or the line is deleted (no
  JupyterHub button; Binder and Colab need nothing else);
* each chapter's install cell: in an unpublished copy it stops with one sentence saying how to
  get kappalib (there is no repository to install it from); publishing deletes that test
  (``UNPUBLISHED_TEST``), so the cell installs kappalib from the repository.

An unpublished checkout builds a site without these links at all: ``tools/offline_assets.py``
asks :func:`unpublished_theme_options` to drop the repository, issues and launch buttons whose
target is still a placeholder (``make book`` in a fresh clone ships no dead link).

It then fails, naming file and line, if a placeholder is left anywhere.  Run it again with
another ``--repo`` to move the course: the URL it replaces is the one ``_config.yml`` names.
Standard library only (no ``.venv`` needed).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PLACEHOLDER_URL = "https://github.com/OWNER/kappa-honestly"
PLACEHOLDER_HUB = "https://jupyterhub.example.org"
# What must not be left after publishing.  This file and its test name the placeholders.
LEFTOVER = re.compile(r"\bOWNER\b|jupyterhub\.example\.org")
NAMES_PLACEHOLDERS = {"tools/publish_config.py", "tests/test_publish.py"}

# The install cell's test for an unpublished copy: its line and the indented block under it
# (the raise) are deleted from every notebook on publishing.
UNPUBLISHED_TEST = 'if "/OWNER/" in SOURCE:'

REPO = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}$")
HUB_LINE = re.compile(r"^[ \t]*jupyterhub_url:[ \t]*https://jupyterhub\.example\.org[ \t]*\n", re.M)
CONFIG_URL = re.compile(r"^repository:\s*\n(?:[ \t]+.*\n)*?[ \t]+url:[ \t]*(\S+)", re.M)
CONFIG_BRANCH = re.compile(r"^(repository:\s*\n(?:[ \t]+.*\n)*?[ \t]+branch:[ \t]*)(\S+)", re.M)


def tracked_text_files(root: Path) -> dict[str, str]:
    """Tracked files (and new ones git does not ignore) that are UTF-8 text."""
    if (root / ".git").exists():
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        names = [n for n in out.split("\0") if n]
    else:
        skip = {".git", ".venv", "_build", ".site-vendor", "node_modules"}
        names = [
            p.relative_to(root).as_posix()
            for p in root.rglob("*")
            if p.is_file() and not skip & set(p.relative_to(root).parts)
        ]
    texts = {}
    for name in sorted(set(names)):
        path = root / name
        if not path.is_file():
            continue
        try:
            texts[name] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
    return texts


def leftovers(root: Path) -> list[str]:
    """``file:line: text`` for every placeholder left in the tracked tree."""
    found = []
    for name, text in tracked_text_files(root).items():
        if name in NAMES_PLACEHOLDERS:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if LEFTOVER.search(line):
                found.append(f"{name}:{number}: {line.strip()[:120]}")
    return found


def is_placeholder(url: str | None) -> bool:
    """True when ``url`` is missing or still names the placeholder owner or hub."""
    return not url or bool(LEFTOVER.search(url))


def launchers(config_path: Path) -> tuple[str, ...]:
    """The launch buttons a chapter of the book built from ``config_path`` shows."""
    config = config_path.read_text(encoding="utf-8")
    match = CONFIG_URL.search(config)
    if is_placeholder(match.group(1) if match else None):
        return ()
    hub = re.search(r"^[ \t]+jupyterhub_url:[ \t]*(\S+)", config, re.M)
    return ("Binder", "Colab") + (() if is_placeholder(hub and hub.group(1)) else ("JupyterHub",))


def unpublished_theme_options(options: dict) -> dict:
    """The theme options without the buttons whose target is a placeholder (a copy).

    The repository and issues buttons need the repository URL; the Binder and Colab buttons
    open the chapter from that repository; the JupyterHub button needs a hub. In a checkout
    that ``make publish-config`` has not configured they would all lead nowhere.
    """
    options = dict(options)
    launch = dict(options.get("launch_buttons") or {})
    if is_placeholder(options.get("repository_url")):
        options["repository_url"] = ""
        options["use_repository_button"] = False
        options["use_issues_button"] = False
        options["use_edit_page_button"] = False
        options["use_source_button"] = False
        for key in ("binderhub_url", "colab_url", "jupyterhub_url", "deepnote_url"):
            launch[key] = ""
    elif is_placeholder(launch.get("jupyterhub_url")):
        launch["jupyterhub_url"] = ""
    options["launch_buttons"] = launch
    return options


def _without_unpublished_test(lines: list[str]) -> list[str]:
    """``lines`` without the line of UNPUBLISHED_TEST and the block indented under it."""
    kept, block_indent = [], None
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if block_indent is not None and (not line.strip() or indent > block_indent):
            continue  # the body of the test
        block_indent = None
        if line.strip().startswith(UNPUBLISHED_TEST):
            block_indent = indent
            continue
        kept.append(line)
    return kept


def _drop_unpublished_test(name: str, text: str) -> str:
    """The install cell's unpublished-copy test deleted: from every cell of a notebook, or
    from a text file that shows the cell (the README's chapter template)."""
    if not name.endswith(".ipynb"):
        return "".join(_without_unpublished_test(text.splitlines(keepends=True)))
    nb = json.loads(text)
    changed = False
    for cell in nb.get("cells", []):
        source = cell["source"]
        lines = source.splitlines(keepends=True) if isinstance(source, str) else list(source)
        kept = _without_unpublished_test(lines)
        if kept != lines:
            if kept and not lines[-1].endswith("\n"):
                kept[-1] = kept[-1].rstrip("\n")
            cell["source"] = kept
            changed = True
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n" if changed else text


def publish(
    root: Path, repo: str, *, branch: str | None = None, hub: str | None = None
) -> list[str]:
    """Rewrite the tree; return the files changed."""
    if not REPO.match(repo):
        raise ValueError(f"REPO must look like owner/name (a GitHub repository), got {repo!r}.")
    if hub is not None and not re.match(r"^https?://[^\s/]+", hub):
        raise ValueError(f"HUB must be the http(s) URL of a JupyterHub, got {hub!r}.")
    if branch is not None and not re.match(r"^[A-Za-z0-9._/-]+$", branch):
        raise ValueError(f"BRANCH must be a git branch name, got {branch!r}.")
    config = (root / "_config.yml").read_text(encoding="utf-8")
    match = CONFIG_URL.search(config)
    old_url = match.group(1) if match else PLACEHOLDER_URL
    new_url = f"https://github.com/{repo}"

    changed = []
    for name, text in tracked_text_files(root).items():
        if name in NAMES_PLACEHOLDERS:
            continue
        new = text.replace(old_url, new_url)
        if old_url != PLACEHOLDER_URL:
            new = new.replace(PLACEHOLDER_URL, new_url)
        if UNPUBLISHED_TEST in new or (name.endswith(".ipynb") and "/OWNER/" in new):
            new = _drop_unpublished_test(name, new)
        if name == "_config.yml":
            new = HUB_LINE.sub("", new) if hub is None else new.replace(PLACEHOLDER_HUB, hub)
            if branch is not None:
                new = CONFIG_BRANCH.sub(lambda m: m.group(1) + branch, new)
        if new != text:
            (root / name).write_text(new, encoding="utf-8")
            changed.append(name)
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", required=True, help="the GitHub repository, owner/name")
    parser.add_argument("--branch", help="the branch the book is built from (default: keep)")
    parser.add_argument("--hub", help="your JupyterHub's URL (default: drop that button)")
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        changed = publish(args.root, args.repo, branch=args.branch, hub=args.hub)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    for name in changed:
        print(f"rewrote {name}")
    left = leftovers(args.root)
    if left:
        print("placeholders left:", *left, sep="\n  ", file=sys.stderr)
        return 1
    print(f"the course now points at https://github.com/{args.repo}; no placeholder is left")
    return 0


if __name__ == "__main__":
    sys.exit(main())

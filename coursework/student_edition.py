"""The student edition of the book: every exercise, no solution (built by `make assignments`).

Run as a script, it writes the edition's Jupyter Book configuration, generated from the
book's own `_config.yml` so that the two never drift apart:

    python coursework/student_edition.py _build/student/_config.yml

The generated configuration differs from `_config.yml` in these places only: the title says
"student edition"; notebooks are not executed again (their stored outputs are shown); no
download button, copied sources, launch, repository or issue buttons (they lead to the
solutions); no instructors page (with its own table of contents, ``_toc.yml`` beside the
configuration); the
local extensions are given by absolute path (Jupyter Book resolves them against the folder of
the configuration file); and this module is loaded as a Sphinx extension, which removes the
solutions.

Why not sphinx-exercise's own ``hide_solutions = True``: with sphinx-exercise 1.2.1 it crashes
the build on *gated* solutions (``solution-start`` / ``solution-end``, used by chapters 01, 02
and 05 for solutions with code cells): "departing unknown node type: solution_end_node"
(executablebooks/sphinx-exercise#89). Worse, the gated content would stay on the page. So the
extension below drops every ``solution_node`` once sphinx-exercise has merged each gated
solution into one node (its read-time transforms run before ``doctree-read``).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def remove_solutions(app, doctree) -> None:
    from docutils import nodes
    from sphinx_exercise.nodes import solution_node

    for node in list(doctree.findall(solution_node)):
        node.parent.remove(node)
    # A `hide-input` cell is only folded on the page; the chapters use it for cells that check
    # the numbers quoted in the solutions. The student edition drops such inputs (and the cell
    # when nothing else is left).
    for cell in list(doctree.findall(nodes.container)):
        if "tag_hide-input" not in cell.get("classes", []):
            continue
        for child in list(cell.children):
            if "cell_input" in child.get("classes", []):
                cell.remove(child)
        if not cell.children:
            cell.parent.remove(cell)


def hide_sources(app, config) -> None:
    # Jupyter Book 1.x has no `html: use_download_button` key, and a `html_theme_options`
    # under sphinx.config would replace the options that Jupyter Book builds.
    config.html_theme_options["use_download_button"] = False


def setup(app):
    app.connect("config-inited", hide_sources)
    app.connect("doctree-read", remove_solutions)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


INSTRUCTOR_PAGES = ["book/for_instructors.md"]


def student_toc(book_toc: Path) -> dict:
    """The book's table of contents without the instructors' pages (and parts left empty)."""
    import yaml

    toc = yaml.safe_load(book_toc.read_text())
    drop = {page.removesuffix(".md") for page in INSTRUCTOR_PAGES}
    parts = []
    for part in toc.get("parts", []):
        chapters = [c for c in part.get("chapters", []) if c.get("file") not in drop]
        if chapters:
            parts.append({**part, "chapters": chapters})
    toc["parts"] = parts
    return toc


# The footer's links into the repository, and where the student edition points instead
LICENCE_PAGES = {
    "LICENSE-CC-BY-4.0": "https://creativecommons.org/licenses/by/4.0/legalcode",
    "LICENSE": "https://opensource.org/license/mit",
}


def student_footer(footer: str, repo_url: str) -> str:
    """The book's footer without the repository: the licence links go to the licences' own
    pages, and the citation drops the repository's address.  Fails if the address is left."""
    for name, url in LICENCE_PAGES.items():  # LICENSE-CC-BY-4.0 before its prefix LICENSE
        footer = footer.replace(f"{repo_url}/blob/main/{name}", url)
    footer = re.sub(
        rf"\s*{re.escape(repo_url)}\s*\(see CITATION\.cff in the repository\)\.", "", footer
    )
    if repo_url in footer:
        raise SystemExit(
            f"student_edition.py: the footer of _config.yml still names {repo_url}; teach "
            "student_footer() its new link"
        )
    return footer


def student_config(book_config: Path) -> dict:
    import yaml

    config = yaml.safe_load(book_config.read_text())
    config["title"] += " (student edition)"
    config["execute"]["execute_notebooks"] = "off"
    # No way back to the sources (they hold the solutions): no copied sources, no launch
    # buttons, and no download button (turned off in hide_sources below).
    config.pop("launch_buttons", None)
    # No repository or issue buttons (the repository holds the solutions), and no instructors
    # page (it says where the solutions are): it is left out of the table of contents
    # (student_toc) and excluded here.
    repo_url = config.pop("repository")["url"]
    config.setdefault("html", {}).update(use_repository_button=False, use_issues_button=False)
    footer = config["html"].get("extra_footer", "")
    config["html"]["extra_footer"] = student_footer(footer, repo_url)
    config["exclude_patterns"] = [*config.get("exclude_patterns", []), *INSTRUCTOR_PAGES]
    sphinx = config["sphinx"]
    sphinx["local_extensions"] = {
        name: str((ROOT / path).resolve()) for name, path in sphinx["local_extensions"].items()
    }
    sphinx["local_extensions"]["student_edition"] = str(Path(__file__).resolve().parent)
    sphinx["config"]["extensions"].append("student_edition")
    sphinx["config"]["html_copy_source"] = False
    return config


if __name__ == "__main__":
    import yaml

    out = Path(sys.argv[1])
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(yaml.safe_dump(student_config(ROOT / "_config.yml"), sort_keys=False))
    toc = out.parent / "_toc.yml"
    toc.write_text(yaml.safe_dump(student_toc(ROOT / "_toc.yml"), sort_keys=False))
    print(f"wrote {out} and {toc}")

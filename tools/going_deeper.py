"""Sphinx extension: "going deeper" parts fold away, on screen; on paper they print open.

A chapter keeps one main path. What the main path does not need (a search, a proof, an audit
of a source, a side topic) goes into a part whose heading starts with "Going deeper", e.g.
``### Going deeper: the closed form of the minimum``; its cells carry the tag
``going-deeper`` (the word counts of the main path leave them out). Everything under that
heading, up to the next heading of the same or a higher level, is folded into
``<details class="going-deeper">`` with a summary that says it is optional. The heading
stays visible (and in the page's table of contents), so the reader sees what is there.

The fold is made after Sphinx has collected the page's sections (doctree-read, priority 800),
so a heading inside a part keeps its number and its anchor. ``make pdf`` opens every
``<details>`` before it prints (tools/js/open_toggles.js), and so does the phone pass of
``make check-site`` before it measures.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx

PREFIX = "going deeper"
SUMMARY = "Show this part (optional: the main path of the chapter does not use it)"


class GoingDeeper(nodes.General, nodes.Element):
    """The folded body of a going-deeper section."""


def visit_going_deeper(self, node):
    self.body.append('<details class="going-deeper">\n')
    self.body.append(f"<summary>{SUMMARY}</summary>\n")


def depart_going_deeper(self, node):
    self.body.append("</details>\n")


def is_going_deeper(section: nodes.section) -> bool:
    title = next(iter(section.findall(nodes.title)), None)
    return title is not None and title.astext().strip().lower().startswith(PREFIX)


def fold(app: Sphinx, doctree: nodes.document) -> None:
    for section in list(doctree.findall(nodes.section)):
        if not is_going_deeper(section) or section.get("going_deeper_folded"):
            continue
        title_index = next(i for i, c in enumerate(section.children) if isinstance(c, nodes.title))
        body = section.children[title_index + 1 :]
        if not body:
            continue
        box = GoingDeeper()
        for child in body:
            section.remove(child)
            box += child
        section += box
        section["classes"].append("going-deeper-part")
        section["going_deeper_folded"] = True


def setup(app: Sphinx) -> dict:
    app.add_node(GoingDeeper, html=(visit_going_deeper, depart_going_deeper))
    # After the table-of-contents collector (priority 500): inner headings keep their numbers.
    app.connect("doctree-read", fold, priority=800)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}

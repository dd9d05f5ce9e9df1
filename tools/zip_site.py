"""Pack the built site into one zip that works from disk: ``make zip``.

Usage: ``python tools/zip_site.py _build/html _build/kappa-honestly-site.zip``

Every file goes under one top folder, ``kappa-honestly/``, next to a short ``README.txt`` that
says which file to open. The site needs no server and no network: unzip it anywhere and open
``kappa-honestly/index.html``. Entries are sorted, so the same build gives the same listing.
"""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

TOP = "kappa-honestly"
README = """Kappa, honestly: the course as a static website.

Open kappa-honestly/index.html in a web browser. Everything the pages need, including
MathJax for the formulas and the Jupyter widgets manager for the interactive cells, is in
this folder: no server and no network are needed.
"""


def main(site: Path, out: Path) -> int:
    if not (site / "index.html").is_file():
        print(f"zip_site: {site}/index.html does not exist; run make book first", file=sys.stderr)
        return 1
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".zip.part")
    files = sorted(p for p in site.rglob("*") if p.is_file())
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as zf:
        zf.writestr("README.txt", README)
        for path in files:
            zf.write(path, f"{TOP}/{path.relative_to(site).as_posix()}")
    tmp.replace(out)
    size = out.stat().st_size / 2**20
    print(f"{out}: {len(files)} files, {size:.1f} MiB; unzip it and open {TOP}/index.html")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))

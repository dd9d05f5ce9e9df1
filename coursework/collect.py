"""Collect one set's submissions from an LMS download, keeping the submission times.

    python coursework/collect.py --course DIR --ps ps1 --download submissions.zip \\
        [--times times.csv]

The download is the zip (or its unpacked folder) that Canvas ("Download submissions") or
Moodle ("Download all submissions") gives. Each notebook in it is matched to one student of
the course's gradebook by a token of its path: Canvas names files ``<login>_<ids>_<file>``,
Moodle puts them in ``<Full Name>_<id>_assignsubmission_file_/``; the token must be the
student's id or the part of their e-mail before the ``@`` (so the roster should use the LMS
login as the id). A notebook that matches no student, or more than one, stops the collection
with its name.

The submission time comes from ``--times``, a CSV with the columns ``student_id,timestamp``
(from the LMS's own export of the submission times; a time like ``2027-02-05 16:59:00 UTC``
or ISO 8601), and otherwise from the zip entry's date, which the LMS sets to the upload time
(check it on one known submission: it carries no time zone, and UTC is assumed). The file goes
to ``DIR/submitted/<id>/<ps>/<ps>.ipynb`` with ``timestamp.txt`` beside it; of several
notebooks of one student the latest counts.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
import zipfile
from datetime import UTC, datetime
from pathlib import Path


class CollectError(ValueError):
    """A download the collector cannot match to the roster (one sentence)."""


def entries(download: Path) -> list[tuple[str, bytes, datetime]]:
    out = []
    if download.is_dir():
        for p in sorted(download.rglob("*.ipynb")):
            when = datetime.fromtimestamp(p.stat().st_mtime, tz=UTC)
            out.append((str(p.relative_to(download)), p.read_bytes(), when))
        return out
    with zipfile.ZipFile(download) as z:
        for info in z.infolist():
            if info.filename.endswith(".ipynb") and "__MACOSX" not in info.filename:
                when = datetime(*info.date_time, tzinfo=UTC)
                out.append((info.filename, z.read(info), when))
    return out


def collect(course: Path, ps: str, download: Path, times: Path | None = None) -> dict[str, str]:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        keys = {}
        for s in gb.students:
            keys[s.id.lower()] = s.id
            if s.email:
                keys[s.email.split("@")[0].lower()] = s.id
    given = {}
    if times:
        with open(times, newline="", encoding="utf-8-sig") as fh:
            for row in csv.DictReader(fh):
                given[row["student_id"].strip()] = row["timestamp"].strip()
    chosen: dict[str, tuple[datetime, bytes, str]] = {}
    for name, data, when in entries(download):
        tokens = {t.lower() for t in re.split(r"[_/\\\s.]+", name) if t}
        ids = {keys[t] for t in tokens if t in keys}
        if len(ids) != 1:
            why = "no student" if not ids else f"several students ({', '.join(sorted(ids))})"
            raise CollectError(f"{name} matches {why} of the roster; rename it or fix the roster")
        sid = ids.pop()
        if sid in given:
            stamp = given[sid]
        else:
            stamp = when.strftime("%Y-%m-%d %H:%M:%S UTC")
        if sid not in chosen or when > chosen[sid][0]:
            chosen[sid] = (when, data, stamp)
    for sid, (_, data, stamp) in chosen.items():
        dest = course / "submitted" / sid / ps
        dest.mkdir(parents=True, exist_ok=True)
        (dest / f"{ps}.ipynb").write_bytes(data)
        (dest / "timestamp.txt").write_text(stamp + "\n")
    return {sid: stamp for sid, (_, _, stamp) in chosen.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--course", type=Path, required=True)
    parser.add_argument("--ps", required=True)
    parser.add_argument("--download", type=Path, required=True)
    parser.add_argument("--times", type=Path)
    args = parser.parse_args()
    try:
        got = collect(args.course.resolve(), args.ps, args.download, args.times)
    except (CollectError, OSError, KeyError, zipfile.BadZipFile) as err:
        print(f"collect: {err}", file=sys.stderr)
        return 2
    print(f"collected {len(got)} submissions of {args.ps} into {args.course / 'submitted'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Collect one set's submissions from an LMS download, by identity, keeping the times.

    python coursework/collect.py --course DIR --ps ps1 --download submissions.zip \\
        [--lms-ids lms_ids.csv] [--times times.csv]

The download is the zip (or its unpacked folder) that Canvas ("Download submissions") or
Moodle ("Download all submissions") gives. Each notebook in it is matched to a student by an
identity the LMS itself wrote, never by a guess from a name:

* Canvas names each file ``<name>[_LATE]_<Canvas user id>_<submission id>_<file>``, Moodle puts
  it in ``<Full Name>_<participant id>_assignsubmission_file_/``: that LMS user id is looked
  up in ``--lms-ids``, a CSV with the columns ``student_id,lms_id`` (from the LMS's own grade
  export: Canvas's "ID" column, Moodle's participant id);
* or a path component that is exactly a roster e-mail address, or exactly a student id
  (a download laid out as ``<id>/<file>``).

The file name a student chose never counts (a notebook named after a classmate stays the
uploader's). An entry that matches no student, or several, is refused by name, and nothing is
written while any entry is refused. Of several notebooks of one student the latest counts, and
the run says so. A submission already collected is never overwritten silently: when the new
one differs, the old one is kept in ``submitted/<id>/<ps>/previous/`` and the run lists it.

The zip is read with bounds: at most ``MAX_ENTRIES`` entries, each notebook at most
``MAX_NOTEBOOK`` bytes when unpacked (read in a bounded stream, whatever its header claims).

The submission time comes from ``--times`` (columns ``student_id,timestamp``, from the LMS's
export of the submission times; ``2027-02-05 16:59:00 UTC`` or ISO 8601), and otherwise from
the zip entry's date, which the LMS sets to the upload time (no time zone: UTC is assumed).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import re
import sys
import zipfile
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath

MAX_ENTRIES = 10_000
MAX_NOTEBOOK = 16 * 2**20
CANVAS = re.compile(r"^[^_]+(?:_LATE)?_(\d+)_\d+_.+$")
MOODLE = re.compile(r"^.+_(\d+)_assignsubmission_(?:file|onlinetext)_?$")


class CollectError(ValueError):
    """A download the collector cannot match to the roster (one sentence)."""


def _bounded_read(z: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    if info.file_size > MAX_NOTEBOOK:
        raise CollectError(f"{info.filename} is {info.file_size} bytes unpacked (at most "
                           f"{MAX_NOTEBOOK})")  # fmt: skip
    try:
        with z.open(info) as fh:  # zipfile reads no more than the header says
            data = fh.read(MAX_NOTEBOOK + 1)
    except (zipfile.BadZipFile, OSError, EOFError) as err:
        raise CollectError(f"{info.filename} is damaged ({err})") from None
    if len(data) > MAX_NOTEBOOK:
        raise CollectError(f"{info.filename} unpacks to more than {MAX_NOTEBOOK} bytes")
    return data


def entries(download: Path) -> list[tuple[str, bytes, datetime]]:
    out = []
    if download.is_dir():
        for p in sorted(download.rglob("*.ipynb"))[: MAX_ENTRIES + 1]:
            if p.is_symlink() or not p.is_file():
                continue
            if p.stat().st_size > MAX_NOTEBOOK:
                raise CollectError(f"{p.relative_to(download)} is larger than {MAX_NOTEBOOK} bytes")
            when = datetime.fromtimestamp(p.stat().st_mtime, tz=UTC)
            out.append((str(p.relative_to(download)), p.read_bytes(), when))
    else:
        with zipfile.ZipFile(download) as z:
            infos = z.infolist()
            if len(infos) > MAX_ENTRIES:
                raise CollectError(f"{download} has {len(infos)} entries (at most {MAX_ENTRIES})")
            for info in infos:
                name = info.filename
                if name.endswith(".ipynb") and "__MACOSX" not in name and not info.is_dir():
                    when = datetime(*info.date_time, tzinfo=UTC)
                    out.append((name, _bounded_read(z, info), when))
    if len(out) > MAX_ENTRIES:
        raise CollectError(f"{download} holds more than {MAX_ENTRIES} notebooks")
    return out


def identities(name: str, lms_ids: dict[str, str], emails: dict[str, str],
               ids: set[str]) -> set[str]:  # fmt: skip
    """The students an entry's path names by an identity the LMS wrote (never a guess)."""
    parts = PurePosixPath(name.replace("\\", "/")).parts
    found = set()
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        # Canvas's zip is flat: its pattern is read from a file name alone in the zip; below a
        # folder the file name is the student's own choice, and names no one.
        m = CANVAS.match(part) if len(parts) == 1 else None if last else MOODLE.match(part)
        if m and m.group(1) in lms_ids:
            found.add(lms_ids[m.group(1)])
        elif m and not lms_ids:
            raise CollectError(f"{name} names the LMS user id {m.group(1)}: give --lms-ids "
                               "(student_id,lms_id from the LMS's grade export)")  # fmt: skip
        elif not last and part.lower() in emails:
            found.add(emails[part.lower()])
        elif not last and part in ids:
            found.add(part)
    return found


def read_lms_ids(path: Path | None, roster: set[str]) -> dict[str, str]:
    if path is None:
        return {}
    out: dict[str, str] = {}
    with open(path, newline="", encoding="utf-8-sig") as fh:
        for i, row in enumerate(csv.DictReader(fh), start=2):
            sid, lms = (row.get("student_id") or "").strip(), (row.get("lms_id") or "").strip()
            if sid not in roster:
                raise CollectError(f"{path} line {i}: {sid!r} is not a student of the course")
            if lms in out and out[lms] != sid:
                raise CollectError(f"{path} line {i}: the LMS id {lms!r} is given to "
                                   f"{out[lms]!r} and {sid!r}")  # fmt: skip
            out[lms] = sid
    return out


def collect(course: Path, ps: str, download: Path, times: Path | None = None,
            lms_ids: Path | None = None) -> dict[str, str]:  # fmt: skip
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        roster = {s.id for s in gb.students}
        emails: dict[str, str] = {}
        for s in gb.students:
            if s.email:
                e = s.email.strip().lower()
                emails[e] = s.id if e not in emails else "\0ambiguous"
    emails = {e: s for e, s in emails.items() if s != "\0ambiguous"}
    by_lms = read_lms_ids(lms_ids, roster)
    given = {}
    if times:
        with open(times, newline="", encoding="utf-8-sig") as fh:
            for row in csv.DictReader(fh):
                given[(row.get("student_id") or "").strip()] = (row.get("timestamp") or "").strip()
    chosen: dict[str, tuple[datetime, bytes, str, str]] = {}
    refused, superseded = [], []
    for name, data, when in entries(download):
        ids = identities(name, by_lms, emails, roster)
        if len(ids) != 1:
            why = "no student" if not ids else f"several students ({', '.join(sorted(ids))})"
            refused.append(f"{name} matches {why} of the roster")
            continue
        sid = ids.pop()
        stamp = given.get(sid) or when.strftime("%Y-%m-%d %H:%M:%S UTC")
        if sid in chosen:
            keep, drop = (chosen[sid], (when, data, stamp, name))
            if when > chosen[sid][0]:
                keep, drop = drop, keep
            superseded.append(f"{sid}: {drop[3]} (an earlier upload than {keep[3]})")
            chosen[sid] = keep
        else:
            chosen[sid] = (when, data, stamp, name)
    if refused:
        raise CollectError(
            "; ".join(refused) + ". Nothing was collected: give the LMS ids (--lms-ids), fix "
            "the roster, or remove those entries."
        )
    for line in superseded:
        print(f"collect: of several notebooks the latest counts; not used: {line}")
    for sid, (_, data, stamp, name) in chosen.items():
        dest = course / "submitted" / sid / ps
        dest.mkdir(parents=True, exist_ok=True)
        old = dest / f"{ps}.ipynb"
        if old.exists() and old.read_bytes() != data:
            keep = dest / "previous"
            keep.mkdir(exist_ok=True)
            digest = hashlib.sha256(old.read_bytes()).hexdigest()[:12]
            old.replace(keep / f"{ps}-{digest}.ipynb")
            stamp_old = dest / "timestamp.txt"
            if stamp_old.exists():
                stamp_old.replace(keep / f"timestamp-{digest}.txt")
            print(f"collect: {sid}'s earlier {ps} is kept in {keep} (replaced by {name})")
        old.write_bytes(data)
        (dest / "timestamp.txt").write_text(stamp + "\n")
    return {sid: stamp for sid, (_, _, stamp, _) in chosen.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--course", type=Path, required=True)
    parser.add_argument("--ps", required=True)
    parser.add_argument("--download", type=Path, required=True)
    parser.add_argument("--times", type=Path)
    parser.add_argument("--lms-ids", type=Path)
    args = parser.parse_args()
    try:
        got = collect(args.course.resolve(), args.ps, args.download, args.times, args.lms_ids)
    except (CollectError, OSError, KeyError, zipfile.BadZipFile) as err:
        print(f"collect: {err}", file=sys.stderr)
        return 2
    print(f"collected {len(got)} submissions of {args.ps} into {args.course / 'submitted'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Run archives: one self-contained ``.tar.gz`` of a run (trace, events, artifact, workspace).

Layout of an archive::

    manifest.json                 {format: "autogen-pse-run", version: 1, run_id, product_version,
                                   exported_at, files: {<path>: {size, sha256}}}
    <run_id>/trace.json           the run folder as it is in traces/ (regular files and folders only)
    <run_id>/events.jsonl
    <run_id>/artifact.md …
    <run_id>/workspace/…

:func:`import_archive` checks everything before the run appears: the manifest, every member's
name (inside ``<run_id>/``, no links, devices, absolute paths or ``..``), sizes and hashes, and
that the events belong to the run; then it moves the folder into ``traces/`` in one rename and
indexes it. Nothing is left behind when a check fails.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import tarfile
import tempfile
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from autogen_pse.errors import StoreError, UserError
from autogen_pse.provenance import file_sha256
from autogen_pse.store.files import EventLog, is_locked, store_error
from autogen_pse.store.ids import is_run_id
from autogen_pse.store.layout import EVENTS_FILE, load_trace_doc
from autogen_pse.store.rows import RunRow

__all__ = ["ARCHIVE_FORMAT", "ARCHIVE_SUFFIX", "export_archive", "import_archive"]

ARCHIVE_FORMAT = "autogen-pse-run"
ARCHIVE_VERSION = 1
ARCHIVE_SUFFIX = ".pse.tar.gz"
MANIFEST = "manifest.json"
MAX_MEMBERS = 100_000
MAX_BYTES = 4 << 30  # 4 GiB unpacked: an archive claiming more is refused before anything is written


def export_archive(store: Any, run_id: str, dest: Path | None = None) -> Path:
    """Write ``run_id``'s archive to ``dest`` (a file, or a folder for ``<run_id>.pse.tar.gz``;
    default: the working directory). Symbolic links in the workspace are left out.

    Raises:
        UserError: invalid or unknown run id, a run still running, ``dest`` exists as a file.
        StoreError: the archive cannot be written.
    """
    from autogen_pse import __version__

    run_dir: Path = store.run_dir(run_id)
    row = store.index.get(run_id)
    if (row is not None and row.status == "running") or is_locked(run_dir / EVENTS_FILE):
        raise UserError(f"run {run_id} is still running; export it after it ends (or stop it first)")
    target = Path(dest) if dest is not None else Path.cwd()
    if target.is_dir():
        target = target / f"{run_id}{ARCHIVE_SUFFIX}"
    if target.exists():
        raise UserError(f"{target} already exists; remove it or pass another path with --output")
    if not target.parent.is_dir():
        raise UserError(f"--output {target}: folder {target.parent} does not exist; "
                        "pass an existing folder or a file in one")
    files: dict[str, dict[str, Any]] = {}
    members: list[tuple[Path, str]] = []
    for path in sorted(run_dir.rglob("*")):
        if path.is_symlink() or not (path.is_file() or path.is_dir()):
            continue
        name = f"{run_id}/{path.relative_to(run_dir).as_posix()}"
        members.append((path, name))
        if path.is_file():
            files[name] = {"size": path.stat().st_size, "sha256": file_sha256(path)}
    manifest = {"format": ARCHIVE_FORMAT, "version": ARCHIVE_VERSION, "run_id": run_id,
                "product_version": __version__, "exported_at": datetime.now(UTC).isoformat(timespec="seconds"),
                "files": files}
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with tarfile.open(tmp, "w:gz") as tar:
            data = json.dumps(manifest, indent=2).encode()
            info = tarfile.TarInfo(MANIFEST)
            info.size, info.mtime = len(data), int(datetime.now(UTC).timestamp())
            tar.addfile(info, io.BytesIO(data))
            tar.add(run_dir, arcname=run_id, recursive=False)
            for path, name in members:
                tar.add(path, arcname=name, recursive=False)
        os.replace(tmp, target)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise StoreError(f"cannot write {target}: {exc.strerror or type(exc).__name__}; "
                         "pass another --output (a writable folder with free space)") from exc
    return target


def _bad(path: Path, why: str) -> UserError:
    why = " ".join(why.split())[:300]  # one line, whatever the library said
    return UserError(f"{path}: not a usable run archive ({why}); make one with `pse trace export RUN_ID`")


def _read_manifest(tar: tarfile.TarFile, path: Path) -> dict[str, Any]:
    try:
        member = tar.getmember(MANIFEST)
        raw = tar.extractfile(member)
        manifest = json.loads(raw.read(1 << 24)) if raw is not None else None
    except (KeyError, ValueError, tarfile.TarError, OSError, EOFError) as exc:
        raise _bad(path, f"no readable {MANIFEST}: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != ARCHIVE_FORMAT:
        raise _bad(path, f"{MANIFEST} is not an {ARCHIVE_FORMAT} manifest")
    if manifest.get("version") != ARCHIVE_VERSION:
        raise _bad(path, f"archive version {manifest.get('version')!r}; this version reads {ARCHIVE_VERSION}")
    if not is_run_id(manifest.get("run_id")) or not isinstance(manifest.get("files"), dict):
        raise _bad(path, f"{MANIFEST} has no valid run_id or files")
    return manifest


def _check_members(tar: tarfile.TarFile, path: Path, run_id: str) -> list[tarfile.TarInfo]:
    members = tar.getmembers()
    if len(members) > MAX_MEMBERS:
        raise _bad(path, f"more than {MAX_MEMBERS} entries")
    keep, total = [], 0
    for m in members:
        if m.name == MANIFEST:
            continue
        parts = PurePosixPath(m.name).parts
        if (not parts or parts[0] != run_id or m.name.startswith("/") or ".." in parts
                or not (m.isfile() or m.isdir())):
            raise _bad(path, f"entry {m.name!r} is outside {run_id}/ or not a plain file or folder")
        total += m.size
        if total > MAX_BYTES:
            raise _bad(path, f"more than {MAX_BYTES >> 30} GiB unpacked")
        keep.append(m)
    return keep


def import_archive(store: Any, file: Path) -> RunRow:
    """Bring the run in ``file`` back into ``store``; returns its index row.

    Raises:
        UserError: missing or unreadable file, not an archive of this format, a damaged or
            tampered member, or a run with the same id already present (one line, exit code 2).
        StoreError: the traces folder cannot be written.
    """
    file = Path(file)
    if not file.is_file():
        raise UserError(f"{file}: no such archive file; pass the path written by `pse trace export RUN_ID`")
    try:
        tar = tarfile.open(file, "r:*")  # noqa: SIM115 - closed by the with block below
    except (tarfile.TarError, OSError, EOFError):
        raise _bad(file, "not a tar or .tar.gz archive") from None
    with tar:
        manifest = _read_manifest(tar, file)
        run_id = manifest["run_id"]
        if (store.traces_dir / run_id).exists():
            raise UserError(f"run {run_id} already exists in {store.traces_dir}; "
                            f"remove it first (`pse trace prune`) or keep the one you have")
        members = _check_members(tar, file, run_id)
        store._ensure_traces_dir()
        staging = Path(tempfile.mkdtemp(prefix=f".import-{run_id}-", dir=store.traces_dir))
        try:
            _extract(tar, members, staging, manifest, file)
            run_dir = staging / run_id
            if not (run_dir / EVENTS_FILE).is_file():
                raise _bad(file, f"{run_id}/{EVENTS_FILE} is missing")
            try:
                events = EventLog(run_dir / EVENTS_FILE).read()
                doc, _ = load_trace_doc(run_dir)
            except StoreError as exc:
                raise _bad(file, f"events do not read back: {exc}") from None
            if not events or any(e.run_id != run_id for e in events) or doc is None:
                raise _bad(file, f"the events are not those of run {run_id}")
            try:
                os.rename(run_dir, store.traces_dir / run_id)
            except OSError as exc:
                raise store_error(store.traces_dir / run_id, exc, "create") from exc
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    final = store.traces_dir / run_id
    doc, _ = load_trace_doc(final)
    assert doc is not None
    row = RunRow.from_trace(doc, trace_dir=final)
    store.index.upsert(row)
    return row


def _extract(tar: tarfile.TarFile, members: list[tarfile.TarInfo], staging: Path, manifest: dict[str, Any],
             file: Path) -> None:
    expected = dict(manifest["files"])
    for m in members:
        target = staging / m.name
        if m.isdir():
            target.mkdir(parents=True, exist_ok=True)
            continue
        want = expected.pop(m.name, None)
        if not isinstance(want, dict):
            raise _bad(file, f"{m.name} is not listed in {MANIFEST}")
        target.parent.mkdir(parents=True, exist_ok=True)
        source = tar.extractfile(m)
        if source is None:
            raise _bad(file, f"{m.name} cannot be read")
        digest = hashlib.sha256()
        try:
            with target.open("wb") as out:
                for block in iter(lambda: source.read(1 << 20), b""):  # noqa: B023 - used at once
                    digest.update(block)
                    out.write(block)
        except (tarfile.TarError, EOFError, OSError) as exc:
            if isinstance(exc, OSError) and not isinstance(exc, tarfile.TarError | EOFError) and exc.errno:
                raise store_error(target, exc) from exc
            raise _bad(file, f"{m.name} is truncated or damaged") from None
        if digest.hexdigest() != want.get("sha256") or target.stat().st_size != want.get("size"):
            raise _bad(file, f"{m.name} does not match its hash in {MANIFEST} (damaged or edited)")
    if expected:
        raise _bad(file, f"{len(expected)} file(s) listed in {MANIFEST} are missing, e.g. {next(iter(expected))}")

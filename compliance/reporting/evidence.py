"""证据包的文件: an evidence pack written as self-contained HTML pages and the same content
as JSON, the original log lines, and `SHA256SUMS` (the `sha256sum -c` format) over all.

Written into a folder; a `.zip` target is the folder zipped, its files stored in order.
"""

from __future__ import annotations

import hashlib
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import msgspec

from compliance.reporting.review_marks import manifest_lines
from compliance.reporting.templating import template

SUMS = "SHA256SUMS"
LINES = "lines.jsonl"
_encoder = msgspec.json.Encoder(decimal_format="number")


class FolderWriter:
    """Writes the pack's files into `folder`, keeping each one's SHA-256."""

    def __init__(self, folder: Path):
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.digests: dict[str, str] = {}
        self._lines: Any = None

    def _write(self, name: str, data: bytes) -> None:
        (self.folder / name).write_bytes(data)
        self.digests[name] = hashlib.sha256(data).hexdigest()

    def page(self, number: int, sessions: list[dict[str, Any]]) -> None:
        stem = f"sessions-{number:03d}"
        html = template("evidence_page.html.j2").render(number=number, sessions=sessions)
        self._write(f"{stem}.html", html.encode())
        self._write(f"{stem}.json", _json({"page": number, "sessions": sessions}))

    def lines(self, lines: list[bytes]) -> None:
        if self._lines is None:
            self._lines = ((self.folder / LINES).open("wb"), hashlib.sha256())  # noqa: SIM115
        out, sha = self._lines
        for raw in lines:
            out.write(raw + b"\n")
            sha.update(raw + b"\n")

    def index(self, pack: dict[str, Any]) -> None:
        html = template("evidence_index.html.j2").render(pack=pack, manifest_lines=manifest_lines)
        self._write("index.html", html.encode())
        self._write("index.json", _json(pack))

    def finish(self) -> Path:
        """Close the lines and write SHA256SUMS; the folder."""
        if self._lines is not None:
            out, sha = self._lines
            out.close()
            self.digests[LINES] = sha.hexdigest()
        sums = "".join(f"{digest}  {name}\n" for name, digest in sorted(self.digests.items()))
        (self.folder / SUMS).write_text(sums, encoding="utf-8")
        return self.folder


def _json(value: Any) -> bytes:
    return msgspec.json.format(_encoder.encode(value), indent=2) + b"\n"


class ZipTarget:
    """A folder in a temporary place, zipped to `path` when finished."""

    def __init__(self, path: Path):
        self.path = path
        self._temp = tempfile.TemporaryDirectory(prefix="compliance-evidence-")
        self.writer = FolderWriter(Path(self._temp.name) / path.stem)

    def finish(self) -> Path:
        folder = self.writer.finish()
        try:
            with zipfile.ZipFile(self.path, "w", zipfile.ZIP_DEFLATED) as archive:
                for file in sorted(folder.iterdir()):
                    archive.write(file, f"{folder.name}/{file.name}")
        finally:
            self._temp.cleanup()
        return self.path


def target_for(path: Path) -> tuple[FolderWriter, Any]:
    """The writer for `path` (a folder, or a .zip), and what finishes it."""
    if path.suffix.lower() == ".zip":
        target = ZipTarget(path)
        return target.writer, target.finish
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise FileExistsError(f"{path} exists and is not an empty folder")
    writer = FolderWriter(path)
    return writer, writer.finish

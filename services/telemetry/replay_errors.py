"""Why a file cannot be replayed, and the notes a replay carries: one line each, translatable."""
from __future__ import annotations

from services.i18n import TranslatableError, translate


class ReplayError(TranslatableError):
    """The file cannot be replayed. ``str()`` is one line in English (JSON, logs);
    ``message`` is the same line translatable, for a person (CLI ``fail``, GUI ``render``)."""


# What a person is told about a file to replay; file names, counts and the OS's own words are placeholders.
NO_SUCH_FILE = translate("Replay", "{path}: no such file")
IS_A_FOLDER = translate("Replay", "{path}: is a folder, not a file")
CANNOT_READ = translate("Replay", "{path}: cannot read it ({reason})")
NO_READABLE_SAMPLES = translate("Replay", "{path}: the recording holds no readable samples")
SHOWING_NEWEST = translate("Replay", "{name}: showing the newest {kept} of {total} readings")
SHOWING_NEWEST_HISTORY = translate("Replay", "{name}: showing the newest {kept} of {total} readings (what the history holds)")
BINARY_DATA = translate("Replay", "{path}: not an nvidia-smi CSV log or a GPU Assistant recording (binary data)")
LINE_TOO_LONG = translate("Replay", "{path}: not an nvidia-smi CSV log (a line longer than {kib} KiB)")
EMPTY_FILE = translate("Replay", "{path}: the file is empty")
NO_HEADER = translate("Replay", "{path}: no header line; record with --format=csv (without noheader)")
NOT_A_LOG = translate("Replay", "{path}: not an nvidia-smi CSV log or a GPU Assistant recording")
NO_READINGS = translate("Replay", "{path}: the log has a header but no readings")
TOO_MANY_BAD = translate("Replay", "{path}: {bad} of {total} rows are unreadable; not a usable nvidia-smi CSV log")
LONG_LINES_SKIPPED = translate("Replay", "{name}: {count} lines longer than {kib} KiB skipped")
BAD_ROWS_SKIPPED = translate("Replay", "{name}: {count} unreadable rows skipped")

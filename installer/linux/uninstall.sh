#!/usr/bin/env bash
# Remove GPU Assistant's menu entry, icons, command link and app folder (what install.sh added).
#   ./uninstall.sh [--dry-run] [--prefix DIR]
# Your settings and recorded sessions are kept.
# Started as "sh install.sh"? This script needs bash.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/install.sh" --uninstall "$@"

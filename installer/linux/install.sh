#!/usr/bin/env bash
# Install GPU Assistant for the current user (no root, nothing outside your home folder).
#
#   ./install.sh [--dry-run] [--prefix DIR] [--bundle DIR]
#   ./install.sh --uninstall [--dry-run] [--prefix DIR]     (uninstall.sh does the same)
#
# Run it from the unpacked tarball. It copies the app to ~/.local/opt/gpu-assistant, links
# ~/.local/bin/gpu-assistant to it, and adds the menu entry, the icons and the AppStream data under
# ~/.local/share. Every step is printed as the exact command before it runs; --dry-run only prints.
# What was installed is listed in ~/.local/opt/gpu-assistant/.installed-files, and --uninstall
# removes exactly those files. A file of the same name that is not ours is moved aside to
# NAME.bak-<time> and put back by --uninstall. Your settings and recorded sessions
# (~/.config/gpu-assistant, ~/.local/share/gpu-assistant) are never touched.
# Started as "sh install.sh"? This script needs bash.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -euo pipefail

APP_ID="gpu-assistant"
DESKTOP_ID="io.github.gpu_assistant.GpuAssistant"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

DRY_RUN=0
MODE=install
BUNDLE="$HERE"
DATA_HOME="${XDG_DATA_HOME:-$HOME/.local/share}"
PREFIX="$HOME/.local/opt/$APP_ID"
# The copy of this script inside an installed app removes that installation by default.
if [ -f "$HERE/.installed-files" ]; then
    PREFIX="$HERE"
fi
BIN_DIR="$HOME/.local/bin"

usage() {
    sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

die() {
    echo "error: $*" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --uninstall) MODE=uninstall ;;
        --prefix) [ $# -ge 2 ] || die "--prefix needs a folder"; PREFIX="$2"; shift ;;
        --bundle) [ $# -ge 2 ] || die "--bundle needs a folder"; BUNDLE="$2"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
    shift
done

case "$PREFIX" in
    /*) ;;
    *) PREFIX="$(pwd)/$PREFIX" ;;
esac
# The path goes into the menu entry's Exec line: refuse characters that would need escaping there.
# shellcheck disable=SC1003  # '\' is a literal backslash pattern, not an escaped quote
case "$PREFIX" in
    *'"'*|*'`'*|*'$'*|*'\'*|*$'\n'*) die "the install folder may not contain \" \` \$ \\ or a line break: $PREFIX" ;;
esac
PREFIX="${PREFIX%/}"
if [ -z "$PREFIX" ] || [ "$PREFIX" = "$HOME" ] || [ "$PREFIX" = "$DATA_HOME" ]; then
    die "refusing to use $PREFIX/ as the install folder: it must be a folder of its own"
fi
MANIFEST="$PREFIX/.installed-files"
BACKUPS="$PREFIX/.backups"  # "original<TAB>backup" for files of someone else's that we moved aside
STAMP="$(date +%Y%m%d-%H%M%S)"
EXE="$PREFIX/$APP_ID"

# Print a command, then run it unless this is a dry run.
run() {
    printf '%s' "+"
    printf ' %q' "$@"
    printf '\n'
    if [ "$DRY_RUN" -eq 0 ]; then
        "$@"
    fi
}

# Remember a file we put in place, so uninstall removes exactly what install added.
record() {
    if [ "$DRY_RUN" -eq 0 ]; then
        printf '%s\n' "$1" >> "$MANIFEST"
    fi
}

# A file of the same name that is not ours is moved aside (and put back by uninstall), never overwritten.
keep_aside() {
    local path="$1"
    if [ -e "$path" ] || [ -L "$path" ]; then
        local backup="$path.bak-$STAMP"
        run mv -- "$path" "$backup"
        if [ "$DRY_RUN" -eq 0 ]; then
            printf '%s\t%s\n' "$path" "$backup" >> "$BACKUPS"
        fi
    fi
}

refresh_caches() {
    if command -v update-desktop-database >/dev/null 2>&1; then
        run update-desktop-database -q "$DATA_HOME/applications" || true
    fi
    if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -d "$DATA_HOME/icons/hicolor" ]; then
        run gtk-update-icon-cache -q -t -f "$DATA_HOME/icons/hicolor" || true
    fi
}

do_uninstall() {
    if [ ! -f "$MANIFEST" ]; then
        echo "GPU Assistant is not installed in $PREFIX (no $MANIFEST); nothing to remove."
        return 0
    fi
    # Files first, newest record last is fine: each line is one file or link we created.
    while IFS= read -r path; do
        [ -n "$path" ] || continue
        if [ -e "$path" ] || [ -L "$path" ]; then
            run rm -f -- "$path"
        fi
    done < "$MANIFEST"
    if [ -f "$BACKUPS" ]; then
        local original backup
        while IFS=$'\t' read -r original backup; do
            if [ -n "$backup" ] && { [ -e "$backup" ] || [ -L "$backup" ]; } && [ ! -e "$original" ]; then
                run mv -- "$backup" "$original"
            fi
        done < "$BACKUPS"
    fi
    run rm -rf -- "$PREFIX"
    refresh_caches
    if [ "$DRY_RUN" -eq 0 ]; then
        echo "Removed. Your settings and recorded sessions were kept (~/.config/$APP_ID, $DATA_HOME/$APP_ID)."
    fi
}

do_install() {
    [ -x "$BUNDLE/$APP_ID" ] || die "no app in $BUNDLE (expected $BUNDLE/$APP_ID): run install.sh from the unpacked tarball, or pass --bundle DIR"
    [ -d "$BUNDLE/_internal" ] || die "$BUNDLE/_internal is missing: the bundle is incomplete"
    local icons="$BUNDLE/_internal/resources/icons"
    [ -d "$icons/hicolor" ] || die "no icons in $icons/hicolor"
    local desktop_src="$BUNDLE/share/applications/$DESKTOP_ID.desktop"
    local metainfo_src="$BUNDLE/share/metainfo/$DESKTOP_ID.metainfo.xml"
    [ -f "$desktop_src" ] || die "missing $desktop_src"

    if [ -e "$PREFIX" ] && [ ! -f "$MANIFEST" ]; then
        die "$PREFIX exists but was not made by this installer; move it away or pick another --prefix"
    fi
    local link="$BIN_DIR/$APP_ID"
    if [ -e "$link" ] && [ ! -L "$link" ]; then
        die "$link exists and is not our link; move it away first"
    fi

    if [ -f "$MANIFEST" ]; then
        echo "Replacing the copy installed in $PREFIX."
        do_uninstall
    fi

    run mkdir -p "$PREFIX"
    if [ "$DRY_RUN" -eq 0 ]; then
        : > "$MANIFEST"
    fi
    run cp -a "$BUNDLE/$APP_ID" "$BUNDLE/_internal" "$PREFIX/"
    # Keep the scripts beside the app, so it can be removed after the tarball is gone.
    run install -m 755 "$HERE/install.sh" "$HERE/uninstall.sh" "$PREFIX/"

    run mkdir -p "$BIN_DIR"
    if [ -L "$link" ] && [ "$(readlink "$link")" != "$EXE" ]; then
        keep_aside "$link"
    fi
    run ln -sfn "$EXE" "$link"
    record "$link"

    # Menu entry, pointing at the copied app by its full path (~/.local/bin is not on every desktop's PATH).
    local desktop_dst="$DATA_HOME/applications/$DESKTOP_ID.desktop"
    run mkdir -p "$DATA_HOME/applications"
    keep_aside "$desktop_dst"
    echo "+ write $desktop_dst (Exec=\"$EXE\")"
    if [ "$DRY_RUN" -eq 0 ]; then
        sed -e "s|^Exec=$APP_ID|Exec=\"$EXE\"|" -e "s|^TryExec=$APP_ID\$|TryExec=$EXE|" "$desktop_src" > "$desktop_dst.tmp"
        mv -f "$desktop_dst.tmp" "$desktop_dst"
    fi
    record "$desktop_dst"

    if [ -f "$metainfo_src" ]; then
        run mkdir -p "$DATA_HOME/metainfo"
        keep_aside "$DATA_HOME/metainfo/$DESKTOP_ID.metainfo.xml"
        run install -m 644 "$metainfo_src" "$DATA_HOME/metainfo/$DESKTOP_ID.metainfo.xml"
        record "$DATA_HOME/metainfo/$DESKTOP_ID.metainfo.xml"
    fi

    local png size_dir dst
    for png in "$icons"/hicolor/*/apps/"$APP_ID".png; do
        size_dir="$(basename "$(dirname "$(dirname "$png")")")"
        dst="$DATA_HOME/icons/hicolor/$size_dir/apps/$APP_ID.png"
        run mkdir -p "$(dirname "$dst")"
        keep_aside "$dst"
        run install -m 644 "$png" "$dst"
        record "$dst"
    done
    dst="$DATA_HOME/icons/hicolor/scalable/apps/$APP_ID.svg"
    run mkdir -p "$(dirname "$dst")"
    keep_aside "$dst"
    run install -m 644 "$icons/$APP_ID.svg" "$dst"
    record "$dst"

    refresh_caches
    if [ "$DRY_RUN" -eq 1 ]; then
        echo "Dry run: nothing was changed."
    else
        echo "Installed. Start it from your applications menu (GPU Assistant) or run: $link"
        case ":$PATH:" in
            *":$BIN_DIR:"*) ;;
            *) echo "Note: $BIN_DIR is not on your PATH; the menu entry works anyway." ;;
        esac
    fi
}

if [ "$MODE" = uninstall ]; then
    do_uninstall
    [ "$DRY_RUN" -eq 1 ] && echo "Dry run: nothing was changed."
else
    do_install
fi
exit 0

#!/usr/bin/env bash
# The Windows lane: the app's Windows code run for real by the official Windows CPython under Wine
# (../shared/tools/winpy, README there), on an English (code page 1252) and a Simplified Chinese
# (code page 936) Windows, output piped as when a user redirects it; the README's two Windows commands
# (installer\bootstrap.py app --self-test, and test: the whole suite) in a fresh clone, as a Windows user
# runs them, in both languages. Then the Windows bundle
# (PyInstaller under that Python) and its NSIS installer (makensis on Linux), installed silently,
# self-tested in both languages and uninstalled silently.
#
#   bash .ci/windows-lane.sh                 # all of it (called by .ci/run)
#   WINDOWS_LANE_INSTALLER=0 bash .ci/windows-lane.sh   # without the bundle and installer
#   WINDOWS_LANE_WINPY=DIR WINDOWS_LANE_SETUP=0 ...      # reuse a winpy folder already built
#
# Needs root on Debian for apt-get (wine, mingw, nsis), and ../shared beside the checkout
# (GPU_ASSISTANT_SHARED overrides). Everything it writes is under build/ and dist/ (ignored by git).
# What Wine cannot show (UAC, Safe Mode, DDU, WDDM counters, the tray) is listed in README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
SHARED="${GPU_ASSISTANT_SHARED:-$ROOT/../shared}"
TOOLS="$SHARED/tools/winpy"
WINPY="${WINDOWS_LANE_WINPY:-$ROOT/build/winpy}"  # an existing winpy folder may stand in (local runs)
LOGS="$ROOT/build/windows-lane"
rm -rf "$LOGS"; mkdir -p "$LOGS"
FAILURES="$LOGS/failures.txt"  # a file, so checks running in the background can report too
: > "$FAILURES"

step() { printf '\n== windows lane: %s\n' "$*"; }
fail() { echo "FAIL  $*" >&2; echo "$*" >> "$FAILURES"; }

# ---- 1. the Windows Python environment ---------------------------------------------------------
if [ "${WINDOWS_LANE_SETUP:-1}" != 0 ]; then
  step "Windows Python (winpy) with requirements-dev.txt"
  "$TOOLS/setup.sh" "$WINPY" requirements-dev.txt
fi

win() { "$TOOLS/run.sh" "$WINPY" "$@"; }

# The Chinese Windows runs with LANG=zh_CN.UTF-8 (run.sh, bootstrap.sh). Where that locale is not
# generated (a fresh Debian has only C.UTF-8), Wine cannot map non-ASCII file names to Unix ones and
# refuses names a real Chinese Windows (UTF-16 NTFS) takes, such as a test's "ünï中文" folder.
if ! locale -a 2>/dev/null | grep -qix 'zh_CN.utf8'; then
  step "generating the zh_CN.UTF-8 locale for the Chinese Windows"
  if ! command -v locale-gen >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends locales >/dev/null || true
  fi
  grep -qx 'zh_CN.UTF-8 UTF-8' /etc/locale.gen 2>/dev/null || echo 'zh_CN.UTF-8 UTF-8' >> /etc/locale.gen
  locale-gen >/dev/null 2>&1 || true
  # Only the (not yet gating) Chinese whole-suite run needs it: say so rather than fail the lane.
  locale -a | grep -qix 'zh_CN.utf8' || echo "windows lane: note: zh_CN.UTF-8 could not be generated" >&2
fi

# The prefix's Windows system processes (services.exe, explorer, winedevice, ...) are started by the
# first program that needs them and inherit its output. When that program's output is a pipe (run.sh
# pipes through `cat`), `cat` then waits for those processes, which live as long as any program in
# the prefix: with the bundle building beside the commands, minutes per command. So boot them first,
# detached from every pipe, and keep the wineserver up until the commands and tests are done.
prefix_wine() { WINEPREFIX="$WINPY/prefix" WINEDEBUG=-all "$@" < /dev/null > /dev/null 2>&1; }
prefix_wine wineserver -p || true  # persistent until `wineserver -k` below
trap 'prefix_wine wineserver -k || true' EXIT
prefix_wine wine wineboot || true
# Wine starts the desktop process (explorer.exe /desktop) for the first program that needs it (the
# self-test does); started from a piped command it holds that pipe open and the command never ends (seen:
# the Chinese self-test waiting 10 min after it passed). Start it here, detached.
desktop_up() {
  local p
  for p in $(pgrep -f 'explorer.exe /desktop'); do
    tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null | grep -qx "WINEPREFIX=$WINPY/prefix" && return 0
  done
  return 1
}
# It ends with the last program that uses it, so a window-less program started here keeps it (and so
# itself) up until the server goes down: its message window makes Wine start the desktop process.
(prefix_wine wine "$WINPY/python/pythonw.exe" -c "import ctypes, time; ctypes.windll.user32.CreateWindowExW(
0, 'Message', 'windows lane', 0, 0, 0, 0, 0, -3, None, None, None); time.sleep(6 * 3600)" &)
for _ in $(seq 90); do desktop_up && break; sleep 1; done  # slow to start on a busy machine
desktop_up || echo "windows lane: note: Wine's desktop process did not start; a piped command may hang" >&2

# expect CODE LANG NAME ARGS... : run main.py ARGS on that Windows, output piped; the exit code must be
# CODE and there must be no traceback. The output is kept in build/windows-lane/NAME-LANG.txt.
expect() {
  local want="$1" lang="$2" name="$3"; shift 3
  local out="$LOGS/$name-$lang.txt" code=0 start=$SECONDS
  WINPY_LANG="$lang" win main.py "$@" > "$out" 2>&1 || code=$?
  if [ "$code" != "$want" ]; then
    fail "$name ($lang): exit $code, expected $want: main.py $*"; tail -n 15 "$out" >&2
  elif grep -q "Traceback (most recent call last)" "$out"; then
    fail "$name ($lang): traceback"; tail -n 15 "$out" >&2
  else
    echo "ok    $name ($lang): exit $code ($((SECONDS - start)) s of CI time)"
  fi
}

# absent NAME LANG REGEX : the command's output must not match REGEX (case-insensitive).
absent() {
  if grep -n -i -E "$3" "$LOGS/$1-$2.txt" >&2; then fail "$1 ($2): output has /$3/"; fi
}

NVSMI_ERROR="NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running."

# ---- 2. every headless command, both Windows languages, output piped ---------------------------
commands() {
  local lang="$1"
  expect 0 "$lang" self-test --self-test
  expect 0 "$lang" psu-zh --lang zh_CN psu --gpu 4090
  expect 0 "$lang" psu-en --lang en psu --gpu 4090 --json
  expect 0 "$lang" setup-plan-json setup --plan --gpu 10de:2684 --json
  absent setup-plan-json "$lang" 'apt|dnf|systemctl|nouveau|initramfs|modprobe'
  grep -q '"system": "windows"' "$LOGS/setup-plan-json-$lang.txt" || fail "setup --plan ($lang) is not the Windows plan"
  expect 0 "$lang" setup-plan-text --lang zh_CN setup --plan --gpu 10de:2684
  absent setup-plan-text "$lang" 'apt|dnf|systemctl|nouveau|initramfs|modprobe'
  expect 0 "$lang" doctor-explain doctor --explain "$NVSMI_ERROR"
  absent doctor-explain "$lang" 'dkms|mokutil|lsmod|modprobe|nouveau|systemctl|apt-get'
  expect 0 "$lang" doctor-explain-zh --lang zh_CN doctor --explain "$NVSMI_ERROR"
  absent doctor-explain-zh "$lang" 'dkms|mokutil|lsmod|modprobe|nouveau|systemctl|apt-get'
  expect 3 "$lang" doctor doctor  # no NVIDIA driver under Wine: exit 3, said in words
  expect 0 "$lang" fit --lang zh_CN fit --model meta-llama/Llama-3.1-8B --gpu "RTX 4090"
  expect 0 "$lang" fit-json fit --params-b 7 --json
  expect 3 "$lang" monitor monitor --once  # no NVML under Wine
  expect 0 "$lang" monitor-demo --lang zh_CN --demo monitor --once
  expect 3 "$lang" hybrid --lang zh_CN hybrid --list
  expect 0 "$lang" sessions --lang zh_CN sessions --list
  expect 0 "$lang" help --help
}

# The bundle build (minutes of PyInstaller) runs while the commands are checked; the two Windows
# languages are checked side by side. Each writes its own log; failures land in $FAILURES.
build_bundle() {
  # Build-time only, as Windows wheels into the same site; the pins are requirements-build.txt's.
  python3 -m pip install -q --disable-pip-version-check --target "$WINPY/site" --platform win_amd64 \
    --python-version 3.13 --implementation cp --only-binary=:all: --upgrade \
    $(grep -E '^(pyinstaller|pyinstaller-hooks-contrib)==' requirements-build.txt) pywin32-ctypes pefile 2>&1 \
    | grep -v '^WARNING' || true
  win installer/build_windows.py || fail "the Windows bundle did not build or check (see $LOGS/bundle.txt)"
}
INSTALLER="${WINDOWS_LANE_INSTALLER:-1}"
if [ "$INSTALLER" != 0 ]; then
  step "Windows bundle (PyInstaller under the Windows Python), in the background: $LOGS/bundle.txt"
  build_bundle > "$LOGS/bundle.txt" 2>&1 &
  bundle_pid=$!
fi
step "commands on the English (1252) and Chinese (936) Windows, output piped"
commands zh_CN > "$LOGS/commands-zh_CN.txt" 2>&1 &
zh_pid=$!
commands en 2>&1 | sed 's/^/[en]    /'
wait "$zh_pid" || true
sed 's/^/[zh_CN] /' "$LOGS/commands-zh_CN.txt"

# The windows-marked tests (the real Windows APIs: registry writes and undo, tampered backups refused,
# the per-app GPU preference, console code pages, ctypes) first, on both Windows: they fail fast and say
# most about a Windows defect. The whole suite runs below, from the README's command.
step "tests/windows (the real Windows APIs) on the English and Chinese Windows"
for lang in en zh_CN; do
  code=0
  WINPY_LANG="$lang" win -m pytest -q -p no:cacheprovider -rs --basetemp "build/pytest-windows-$lang" tests/windows \
    > "$LOGS/windows-tests-$lang.txt" 2>&1 || code=$?
  echo "[$lang] $(grep -a -E '[0-9]+ (passed|failed)' "$LOGS/windows-tests-$lang.txt" | tail -n 1)"
  [ "$code" = 0 ] || { fail "tests/windows ($lang): exit $code"; tail -n 30 "$LOGS/windows-tests-$lang.txt" >&2; }
  if grep -q "Windows only" "$LOGS/windows-tests-$lang.txt"; then fail "tests/windows ($lang) were skipped as not Windows"; fi
done

# ---- 3. the README's two Windows commands, as a Windows user runs them --------------------------
# `py installer\bootstrap.py app --self-test` and `py installer\bootstrap.py test`, in a fresh clone of
# this checkout (what is committed: no Linux .venv, no build output), by the Windows Python: a fresh
# .venv\ made by the project, the requirements from the package index as Windows wheels, no winpy site\
# (../shared/tools/winpy/bootstrap.sh). English (1252) first, then Chinese (936) in the same .venv\.
# bootstrap.sh maps drive D: to the clone: the bundle, built from D: = this checkout, must be done first.
if [ "$INSTALLER" != 0 ]; then
  wait "$bundle_pid" || true
  tail -n 3 "$LOGS/bundle.txt"
fi
step "README's Windows commands in a fresh clone (installer\\bootstrap.py app --self-test, test)"
CLONE="$ROOT/build/windows-clone"
rm -rf "$CLONE"
git clone -q --no-hardlinks "$ROOT" "$CLONE"
mkdir -p "$CLONE/build"  # the test runs' temporary folders (below), beside what a checkout builds
# readme LANG NAME ARGS... : bootstrap.py ARGS in the clone, on that Windows; the log is NAME-LANG.txt.
readme() {
  local lang="$1" name="$2"; shift 2
  local out="$LOGS/$name-$lang.txt" code=0 start=$SECONDS
  (cd "$CLONE" && WINPY_LANG="$lang" "$TOOLS/bootstrap.sh" "$WINPY" "$@") > "$out" 2>&1 || code=$?
  tail -n 2 "$out"
  if [ "$code" != 0 ]; then
    fail "bootstrap.py $* ($lang): exit $code (see $out)"; tail -n 30 "$out" >&2
  elif grep -q "Traceback (most recent call last)" "$out" && [ "$name" = readme-app ]; then
    fail "bootstrap.py $* ($lang): traceback"
  else
    echo "ok    bootstrap.py $* ($lang): exit 0 ($((SECONDS - start)) s of CI time)"
  fi
}
for lang in en zh_CN; do
  readme "$lang" readme-app app --self-test
  # Each language its own temporary folder: a file name the English run wrote (code page 1252) can be
  # one the Chinese Windows (936) cannot even list, and pytest's clean-up of a shared one then fails.
  # The whole suite gates on both Windows (issue 29). WINDOWS_LANE_SUITE_GATES=0 only reports it
  # (a local run while sorting new failures); CI never sets it.
  if [ "${WINDOWS_LANE_SUITE_GATES:-1}" = 0 ]; then
    code=0
    (cd "$CLONE" && WINPY_LANG="$lang" "$TOOLS/bootstrap.sh" "$WINPY" test -q -p no:cacheprovider -rf \
      --basetemp "build/pytest-$lang") > "$LOGS/readme-test-$lang.txt" 2>&1 || code=$?
    echo "NOT GATING  bootstrap.py test ($lang): exit $code; $(grep -a -E '[0-9]+ (passed|failed)' "$LOGS/readme-test-$lang.txt" | tail -n 1)"
    continue
  fi
  readme "$lang" readme-test test -q -p no:cacheprovider -rs --basetemp "build/pytest-$lang"
  # The windows-marked tests must have run (not skipped as "Windows only"), and a skip under Wine
  # says why (linux_only: Linux itself; wine_limit: what Wine lacks, never skipped on a real Windows).
  if grep -q "Windows only" "$LOGS/readme-test-$lang.txt"; then fail "the windows-marked tests were skipped ($lang)"; fi
  grep -E "^SKIPPED" "$LOGS/readme-test-$lang.txt" | sed 's/^/  /' | sort | uniq -c | sort -rn | head -n 40 || true
done

# ---- 4. bundle, installer, silent install, self-test, silent uninstall -------------------------
if [ "$INSTALLER" != 0 ]; then
  # Nothing else runs in the prefix now: back to a wineserver that ends with its last program, so
  # settle's `wineserver -w` can wait for the installer and the uninstaller.
  prefix_wine wineserver -k || true
  [ -f dist/windows/gpu-assistant/gpu-assistant-cli.exe ] || { fail "no Windows bundle"; cat "$FAILURES" >&2; exit 1; }

  step "installer (makensis)"
  command -v makensis >/dev/null 2>&1 || { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nsis >/dev/null; }
  version="$(python3 -c 'import sys; sys.path.insert(0, "."); from services.version import __version__; print(__version__)')"
  setup_exe="dist/GPU-Assistant-Setup-$version.exe"
  makensis -V2 -DVERSION="$version" -DBUNDLE="$ROOT/dist/windows/gpu-assistant" -DOUTFILE="$ROOT/$setup_exe" \
    installer/windows/gpu_assistant.nsi
  ls -l "$setup_exe"

  export WINEPREFIX="$WINPY/prefix" WINEDEBUG=-all
  ln -sfn "$ROOT" "$WINEPREFIX/dosdevices/d:"
  # wine_piped LANG ARGS...: a Windows program, output piped (as run.sh does for python.exe).
  wine_piped() {
    local loc=C.UTF-8; [ "$1" = zh_CN ] && loc=zh_CN.UTF-8; shift
    env LANG="$loc" LC_ALL="$loc" QT_QPA_PLATFORM=offscreen wine "$@" < /dev/null 2>&1 | cat
    return "${PIPESTATUS[0]}"
  }
  # Wait until no program runs in the prefix (at most 3 minutes: a stray process must not hang CI).
  settle() { timeout 180 wineserver -w || fail "a Windows program was still running after 3 minutes"; }
  localappdata="$(wine cmd /c 'echo %LOCALAPPDATA%' 2>/dev/null | tr -d '\r')"
  local_unix="$(winepath -u "$localappdata" 2>/dev/null)"
  app_dir="$local_unix/Programs/GPU Assistant"
  data_dir="$local_unix/gpu-assistant"
  shortcut="$(winepath -u "$(wine cmd /c 'echo %APPDATA%' 2>/dev/null | tr -d '\r')")/Microsoft/Windows/Start Menu/Programs/GPU Assistant.lnk"
  uninst_key='HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\GPU Assistant'

  step "silent install (/S) into $localappdata\\Programs"
  wine_piped en "D:\\${setup_exe//\//\\}" /S || fail "the installer exited $?"
  settle
  [ -f "$app_dir/gpu-assistant.exe" ] && [ -f "$app_dir/gpu-assistant-cli.exe" ] && [ -f "$app_dir/exporter-task.ps1" ] \
    || fail "installed files missing in $app_dir"
  [ -f "$shortcut" ] || fail "no Start-menu shortcut"
  wine reg query "$uninst_key" /v UninstallString >/dev/null 2>&1 || fail "no uninstall entry in HKCU"
  find "$app_dir" \( -iname nvml.dll -o -iname icuuc.dll \) | grep . && fail "the installed copy holds nvml.dll or icuuc.dll"

  for lang in en zh_CN; do
    step "installed copy: --self-test on the $lang Windows"
    code=0
    wine_piped "$lang" "$localappdata\\Programs\\GPU Assistant\\gpu-assistant-cli.exe" --self-test \
      > "$LOGS/installed-self-test-$lang.txt" || code=$?
    tail -n 1 "$LOGS/installed-self-test-$lang.txt"
    [ "$code" = 0 ] || { fail "installed self-test ($lang): exit $code"; tail -n 20 "$LOGS/installed-self-test-$lang.txt" >&2; }
    grep -q "Traceback (most recent call last)" "$LOGS/installed-self-test-$lang.txt" && fail "installed self-test ($lang): traceback"
  done

  step "silent uninstall (/S): only the user's data stays"
  mkdir -p "$data_dir"
  echo "the user's own file" > "$data_dir/keep-me.txt"
  wine_piped en "$localappdata\\Programs\\GPU Assistant\\uninstall.exe" /S || fail "the uninstaller exited $?"
  settle  # the uninstaller runs from a copy in %TEMP%: wait for it
  [ ! -e "$app_dir" ] || { fail "$app_dir is still there:"; find "$app_dir" | head >&2; }
  [ ! -e "$shortcut" ] || fail "the Start-menu shortcut is still there"
  wine reg query "$uninst_key" >/dev/null 2>&1 && fail "the uninstall entry is still in HKCU"
  [ -f "$data_dir/keep-me.txt" ] || fail "the uninstaller removed the user's data in $data_dir"
  rm -f "$data_dir/keep-me.txt"
fi

if [ -s "$FAILURES" ]; then
  echo "windows lane: FAILED (logs in build/windows-lane/):" >&2
  sed 's/^/  /' "$FAILURES" >&2
  exit 1
fi
echo "windows lane: passed in $SECONDS s"

# Sourced by scripts/run and scripts/test: create or refresh the local virtualenv in .venv
# when pyproject.toml is newer than the last install. Idempotent and quiet when nothing changed;
# the installer's own chatter goes to .venv/install.log, shown only when the install fails.
#
# uv installs the project (it resolves and downloads in parallel: about 15 s here against pip's
# 35 s, most of a fresh clone's set-up); it is put into the virtualenv by pip first. Where uv
# cannot be had (no wheel for this platform, an index that lacks it), pip installs instead. Both
# compile the bytecode at install, so the first start of the app and the suite's first processes
# do not each compile the same modules.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
stamp="$venv/.installed-$1"
py="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
  echo "weaver-tui: creating a virtualenv in .venv ..." >&2
  "$py" -m venv "$venv"
fi
_weaver_install() {
  local pip=("$venv/bin/python" -m pip install --quiet --disable-pip-version-check)
  if "${pip[@]}" uv \
     && "$venv/bin/uv" pip install --quiet --compile-bytecode --python "$venv/bin/python" -e "$root$1"; then
    return 0
  fi
  echo "uv could not install the project; pip does instead." >&2
  "${pip[@]}" --upgrade pip && "${pip[@]}" -e "$root$1"
}
if [ ! -f "$stamp" ] || [ "$root/pyproject.toml" -nt "$stamp" ]; then
  echo "weaver-tui: installing dependencies into .venv (first run only) ..." >&2
  log="$venv/install.log"
  if ! _weaver_install "$2" >"$log" 2>&1; then
    cat "$log" >&2
    echo "weaver-tui: installing the dependencies failed (the lines above say why; full log: $log)." >&2
    exit 1
  fi
  touch "$stamp"
fi

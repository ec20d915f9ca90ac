# Sourced by scripts/run and scripts/test: create or refresh the local virtualenv in .venv
# when pyproject.toml is newer than the last install. Idempotent and quiet when nothing changed;
# the installer's own chatter goes to .venv/install.log, shown only when the install fails.
#
# uv installs the project (it resolves and downloads in parallel: about 4 s here against pip's
# 35 s). A uv on PATH is used as it is; otherwise pip puts one into the virtualenv, the
# interpreter's own pip when it has one. The virtualenv is made without pip (copying pip and
# setuptools into it was about 4 CPU-s, a fifth of the set-up) and uv adds pip afterwards, for
# whoever installs an extra by hand. Where uv cannot be had (no wheel for this platform, an
# index that lacks it), ensurepip and pip install instead.
#
# Both compile the bytecode at install: left to the suite, its workers, starting together,
# each compiled the modules they import (about 14 CPU-s against uv's 10 for all of them).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
stamp="$venv/.installed-$1"
py="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
  echo "weaver-tui: creating a virtualenv in .venv ..." >&2
  "$py" -m venv --without-pip "$venv"
fi
_weaver_pip() {
  "$venv/bin/python" -m pip --version >/dev/null 2>&1 || "$venv/bin/python" -m ensurepip --upgrade --default-pip
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$@"
}
# Prints the uv to use: one on PATH, else one installed into .venv by the interpreter's pip
# (pip --python installs into another environment) or, failing that, by the virtualenv's own.
_weaver_uv() {
  if command -v uv; then
    return 0
  fi
  if ! "$py" -m pip --python "$venv/bin/python" install --quiet --disable-pip-version-check uv >&2
  then
    _weaver_pip uv >&2 || return 1
  fi
  echo "$venv/bin/uv"
}
_weaver_install() {
  local uv
  if uv="$(_weaver_uv)" \
     && "$uv" pip install --quiet --compile-bytecode --python "$venv/bin/python" -e "$root$1" \
     && "$uv" pip install --quiet --python "$venv/bin/python" pip; then
    return 0
  fi
  echo "uv could not install the project; pip does instead." >&2
  _weaver_pip --upgrade pip && _weaver_pip -e "$root$1"
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

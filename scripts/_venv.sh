# Sourced by scripts/run and scripts/test: create or refresh the local virtualenv in .venv
# when pyproject.toml is newer than the last install. Idempotent and quiet when nothing changed;
# pip's own chatter (build-backend warnings included) goes to .venv/install.log, shown only
# when the install fails.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
stamp="$venv/.installed-$1"
py="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
  echo "weaver-tui: creating a virtualenv in .venv ..." >&2
  "$py" -m venv "$venv"
fi
if [ ! -f "$stamp" ] || [ "$root/pyproject.toml" -nt "$stamp" ]; then
  echo "weaver-tui: installing dependencies into .venv (first run only) ..." >&2
  log="$venv/install.log"
  if ! { "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip \
         && "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$root$2"; } \
       >"$log" 2>&1; then
    cat "$log" >&2
    echo "weaver-tui: installing the dependencies failed (the lines above say why; full log: $log)." >&2
    exit 1
  fi
  touch "$stamp"
fi

# Sourced by scripts/run and scripts/test: create or refresh the local virtualenv in .venv
# when pyproject.toml is newer than the last install. Idempotent and quiet when nothing changed.
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
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$root$2" >&2
  touch "$stamp"
fi

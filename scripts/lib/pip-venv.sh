# A PyPI tool in a venv of its own, installed once and reused: sourced by
# scripts/localstripe and scripts/fuzz-api.
#
#   pip_venv_install VENV REQUIREMENT MODULE LABEL
#
# installs REQUIREMENT (a pip requirement, like 'localstripe==1.15.*') into
# VENV unless it is there already: the stamp $VENV/.installed-LABEL exists
# and `import MODULE` works (an upgraded python3 breaks a venv). Scripts
# starting side by side install once; the others wait. When it cannot be
# installed (no python3, no venv module, no PyPI) it says why and exits
# with status 3.

pip_venv_install() {
  local venv=$1 requirement=$2 module=$3 label=$4
  local stamp="$venv/.installed-$label"
  local script="scripts/${0##*/}"
  installed() { [[ -f $stamp ]] && "$venv/bin/python" -c "import $module" 2>/dev/null; }
  cannot_install() {
    echo "$script: cannot install $requirement into $venv: $*" >&2
    exit 3
  }

  installed && return 0
  command -v python3 >/dev/null || cannot_install "python3 is missing (Debian: apt-get install python3 python3-venv)."
  mkdir -p "$(dirname "$venv")" || cannot_install "cannot create $(dirname "$venv")."
  if command -v flock >/dev/null; then
    exec 9>"$venv.lock"
    flock 9
  fi
  if ! installed; then
    echo "Installing $requirement into $venv..." >&2
    rm -rf "$venv"
    python3 -m venv "$venv" >&2 \
      || cannot_install "python3 -m venv failed (Debian: apt-get install python3-venv)."
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --retries 2 --timeout 20 "$requirement" >&2 \
      || cannot_install "pip could not install it (is PyPI reachable?)."
    touch "$stamp"
  fi
  exec 9>&-
}

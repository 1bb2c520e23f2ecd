#!/usr/bin/env bash
# Installs the Debian packages the project needs, or says exactly how to.
# Why: pyzbar needs libzbar0 at import time, Kivy and OpenCV need libGL/libEGL, and a
# bare Debian python3 cannot make a venv without python3-venv.  A new user should not
# have to discover this from a traceback.
set -euo pipefail
need=()
have_lib() { ldconfig -p 2>/dev/null | grep -q "$1"; }
have_lib 'libzbar.so.0' || need+=(libzbar0)
have_lib 'libGL.so.1' || need+=(libgl1)
have_lib 'libEGL.so.1' || need+=(libegl1)
have_lib 'libmtdev.so.1' || need+=(libmtdev1)
have_lib 'libgomp.so.1' || need+=(libgomp1)
python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
command -v gs >/dev/null || need+=(ghostscript)  # the label tests read printed PDFs back
# the phone page's tests drive the system's browser headless; nothing is downloaded
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/bin/chromedriver ] || need+=(chromium-driver)
# the HTTPS phone tests trust the tablet's certificate through an NSS database, as a user would
command -v certutil >/dev/null || need+=(libnss3-tools)
[ ${#need[@]} -eq 0 ] && exit 0
line="apt-get install -y ${need[*]}"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian packages: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq || true
  apt-get install -y -qq "${need[@]}"
else
  echo "Table Companion needs these Debian packages: ${need[*]}" >&2
  echo "Install them with:  sudo $line" >&2
  exit 1
fi

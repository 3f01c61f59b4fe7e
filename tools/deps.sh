#!/usr/bin/env bash
# Installs what building and testing libtco needs, where it is missing
# (Debian 12 package names). Safe to run again: it installs nothing twice.
set -euo pipefail

packages=(meson ninja-build pkg-config gcc g++ libcbor-dev libxxhash-dev libcmocka-dev abigail-tools)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

#!/usr/bin/env bash
# Installs the build dependencies from Debian's packages (run as root, or with sudo).
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
    build-essential cmake pkg-config \
    libsystemc-dev libboost-program-options-dev libspdlog-dev catch2 libzstd-dev nlohmann-json3-dev \
    gnuplot-nox fonts-dejavu-core hipcc libamdhip64-dev \
    llvm-15-dev clang-15 llvm-19-dev clang-19 libclang-rt-19-dev python3 >/dev/null
# slurm-wlm and munge: the one-node cluster of tests/cli/slurm_sweep.sh, which starts its own
# daemons. Their services are not started at install (Debian's policy-rc.d, "exit 101"): the
# postinst scripts would start slurmctld with no slurm.conf.
if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
    $SUDO chmod +x /usr/sbin/policy-rc.d
    trap '$SUDO rm -f /usr/sbin/policy-rc.d' EXIT
fi
$SUDO apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
echo "dependencies installed"

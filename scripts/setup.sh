#!/usr/bin/env bash
# Installs the build dependencies from Debian's packages (run as root, or with sudo).
# slurm-wlm and munge: the one-node cluster of the --slurm sweep test (tests/cli/slurm_cluster.bash).
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
    build-essential cmake pkg-config \
    libsystemc-dev libboost-program-options-dev libspdlog-dev catch2 libzstd-dev nlohmann-json3-dev \
    gnuplot-nox fonts-dejavu-core hipcc libamdhip64-dev \
    llvm-15-dev clang-15 llvm-19-dev clang-19 libclang-rt-19-dev python3 \
    slurm-wlm munge >/dev/null
echo "dependencies installed"

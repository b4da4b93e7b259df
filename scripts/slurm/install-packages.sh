#!/bin/sh
# Installs Slurm (slurm-wlm 22.05 on Debian 12) and munge for the Slurm end-to-end test, when missing. Package
# scripts start no daemon (a policy-rc.d that refuses them, removed afterwards): the test starts its own
# cluster, on private sockets and ports. Uses sudo when not run as root.
set -eu

if command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null \
    && command -v munged >/dev/null; then
    exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo=sudo
fi
policy=/usr/sbin/policy-rc.d
placed=""
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
    $sudo chmod 755 "$policy"
    placed=yes
fi
cleanup() {
    if [ -n "$placed" ]; then
        $sudo rm -f "$policy"
    fi
}
trap cleanup EXIT
$sudo apt-get update
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurmctld slurmd slurm-client munge

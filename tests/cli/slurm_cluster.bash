# A one-node Slurm cluster on this machine for the --slurm tests: munged with its own key and socket,
# slurmctld and slurmd with a slurm.conf written here, all under $SLURM_DIR, stopped by stop_cluster
# (which the caller's EXIT trap must run). start_cluster fails loudly where the daemons cannot start.
SLURM_DIR=""

stop_cluster() {
    [ -n "$SLURM_DIR" ] || return 0
    local f
    for f in slurmd slurmctld munged; do
        [ -s "$SLURM_DIR/$f.pid" ] && kill "$(cat "$SLURM_DIR/$f.pid")" 2>/dev/null
    done
    sleep 1
    for f in slurmd slurmctld munged; do
        [ -s "$SLURM_DIR/$f.pid" ] && kill -9 "$(cat "$SLURM_DIR/$f.pid")" 2>/dev/null
    done
    return 0
}

# start_cluster DIR: the cluster's files in DIR (kept apart from the sweep's own folders).
start_cluster() {
    SLURM_DIR=$1
    local d=$SLURM_DIR bin
    for bin in munged mungekey slurmctld slurmd sbatch squeue scontrol scancel; do
        command -v "$bin" >/dev/null || { echo "SLURM CANNOT START: no $bin (scripts/setup.sh installs slurm-wlm and munge)"; return 1; }
    done
    mkdir -p "$d/munge" "$d/state" "$d/spool" || return 1
    chmod 700 "$d/munge"
    # munged insists that its key is private and owned by the user it runs as.
    mungekey --create --keyfile="$d/munge/munge.key" --force || return 1
    munged --force --key-file="$d/munge/munge.key" --socket="$d/munge/socket" \
        --pid-file="$d/munged.pid" --log-file="$d/munged.log" --seed-file="$d/munge/seed" || { echo "SLURM CANNOT START: munged: $(tail -1 "$d/munged.log")"; return 1; }
    # Ports chosen from the folder's name, so that two test runs at once do not share a controller.
    local port=$((20000 + $(printf '%s' "$d" | cksum | cut -d' ' -f1) % 20000))
    local node
    node=$(hostname -s)
    # MessageTimeout 3 and a scheduling pass a second: a one-node test cluster answers at once, and the
    # defaults (10 s, retried; a pass a minute) made the tests wait 18 s for each refusal of a stopped
    # controller and seconds for each array task (slurm_sweep 68.6 -> 23.7 s, all of it waiting).
    cat >"$d/slurm.conf" <<CONF
ClusterName=dcusimtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$d/munge/socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
MinJobAge=600
MessageTimeout=3
SchedulerParameters=sched_interval=1
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF=$d/slurm.conf
    slurmctld -i || { echo "SLURM CANNOT START: slurmctld: $(tail -3 "$d/slurmctld.log")"; return 1; }
    # The node has a folder of its own at $d/node-only (an empty tmpfs over the one the submitting side
    # sees): a sweep there is one whose parts folder is on no filesystem the nodes share.
    mkdir -p "$d/node-only"
    # Where this machine allows no mount namespace, the node sees every folder: the test of a folder
    # the node cannot see is then skipped, and says so (SLURM_NODE_NS=0).
    SLURM_NODE_NS=1
    if ! unshare --mount --propagation private sh -c "mount -t tmpfs tmpfs '$d/node-only'" 2>/dev/null; then
        SLURM_NODE_NS=0
        echo "NOTE: no mount namespace on this machine: slurmd sees every folder"
    fi
    export SLURM_NODE_NS
    if [ "$SLURM_NODE_NS" = 1 ]; then
        unshare --mount --propagation private sh -c "mount -t tmpfs tmpfs '$d/node-only' && exec slurmd" ||
            { echo "SLURM CANNOT START: slurmd (in a mount namespace of its own): $(tail -3 "$d/slurmd.log" 2>/dev/null)"; return 1; }
    else
        slurmd || { echo "SLURM CANNOT START: slurmd: $(tail -3 "$d/slurmd.log" 2>/dev/null)"; return 1; }
    fi
    # The node is up once the controller calls it idle.
    local i
    for i in $(seq 1 60); do
        sinfo -h -o '%T' 2>/dev/null | grep -q '^idle' && return 0
        sleep 0.5
    done
    echo "SLURM CANNOT START: the node never came up: $(sinfo -h 2>&1 | head -1); $(tail -2 "$d/slurmd.log")"
    return 1
}

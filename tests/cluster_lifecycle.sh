#!/usr/bin/env bash
# cluster_lifecycle.sh: topomap-cluster on 4 nodes: bad command lines,
# the links shaped at both ends (flat and two-level), rate, the launcher
# agent with ssh's options, env against what run sets, an up that fails
# halfway, a down after a killed job; each time nothing is left behind.
# Skipped (77) where network namespaces cannot be made.
. "$TOPOMAP_SRCDIR/tests/cluster_lib.sh"

# Bad command lines are refused before anything is made.
expect_fail 2 "the node count is 1 to 250, not '0'" cluster up 0
expect_fail 2 "--rate wants a tc rate of 8kbit to 3.4tbit" cluster up 4 --rate fast
expect_fail 2 "--leaves wants 2 to N (here 4) leaf switches, not '5'" cluster up 4 --leaves 5
expect_fail 2 "--leaves wants 2 to N (here 4) leaf switches, not '0'" cluster up 4 --leaves 0
expect_fail 2 "--leaves wants 2 to N (here 4) leaf switches, not '02'" cluster up 4 --leaves 02
expect_fail 2 "--trunk-rate goes with --leaves" cluster up 4 --trunk-rate 10mbit
# (even at the rate of the links, which up took, and rate then refused)
expect_fail 2 "--trunk-rate goes with --leaves" cluster up 2 --trunk-rate 1gbit
expect_fail 2 "--trunk-rate goes with --leaves" cluster up 4 --rate 10mbit --trunk-rate 10mbit
expect_fail 2 "a cluster name is 1 to 12 lower-case letters" "$CLUSTER" --name 'a b' status
expect_fail 2 "--subnet wants the first three numbers (0 to 255 each)" cluster up 4 --subnet 10.999.0
expect_fail 2 "--rate wants a tc rate of 8kbit to 3.4tbit" cluster up 4 --rate 100tbit
expect_fail 2 "--trunk-rate wants a tc rate of 8kbit to 3.4tbit" cluster up 4 --leaves 2 --trunk-rate 4tbit
expect_fail 2 "TOPOMAP_CLUSTER_STATE wants an absolute path, not 'run/x'" \
  env TOPOMAP_CLUSTER_STATE=run/x "$CLUSTER" --name "$cluster_name" up 2
expect_fail 1 "no cluster '$cluster_name' is up" cluster status
expect_fail 1 "no cluster '$cluster_name' is up" on_cluster hostname
expect_gone "bad command lines"

# The egress qdisc of DEV in namespace NS, as "tbf rate R".
qdisc() { ip netns exec "$1" tc qdisc show dev "$2" | awk '$2 == "tbf" { print $2, $7, $8 }'; }
expect_qdisc() {
  checks=$((checks + 1))
  local got
  got=$(qdisc "$1" "$2")
  [ "$got" = "$3" ] || fail "$1 $2: '$got', expected '$3'"
}

# Flat: every node link shaped at both ends.
cluster_up 4 --slots 2 --rate 100mbit
for i in 0 1 2 3; do
  expect_qdisc "$cluster_name-node$i" eth0 "tbf rate 100Mbit"
  expect_qdisc "$cluster_name-net" "p$i" "tbf rate 100Mbit"
done
expect_ok cluster status
expect_output "node3    10.213.0.4      sw      0"
expect_fail 1 "cluster '$cluster_name' is already up" cluster up 4
expect_ok cluster rate 20mbit
expect_qdisc "$cluster_name-node2" eth0 "tbf rate 20Mbit"
expect_qdisc "$cluster_name-net" p2 "tbf rate 20Mbit"
expect_fail 2 "--trunk-rate: cluster '$cluster_name' has one level" cluster rate 20mbit --trunk-rate 1mbit
expect_fail 2 "rate wants a tc rate of 8kbit to 3.4tbit" cluster rate 100tbit
expect_qdisc "$cluster_name-node2" eth0 "tbf rate 20Mbit"
expect_fail 1 "'node7' is not a node of cluster" cluster run --node node7 -- hostname
# (a host is a name, not a pattern)
expect_fail 1 "'node.' is not a node of cluster" cluster run --node 'node.' -- hostname

# The agent is every launcher's ssh: ssh's options (Hydra puts -x first)
# are skipped, the command runs on the node named, a host outside the
# cluster is refused as ssh would (255).
agent=$cluster_dir/agent
expect_ok on_cluster "$agent" -x -o BatchMode=yes -p 22 node2 'echo $(hostname)' on node2
expect_output "node2 on node2"
expect_ok on_cluster "$agent" -- node3 hostname
expect_output "node3"
expect_fail 255 "topomap-cluster agent: 'node7' is not a node of cluster '$cluster_name'" \
  on_cluster "$agent" -x node7 hostname
# env: what run sets, for each MPI.
expect_ok cluster env
for v in "OMPI_MCA_plm_rsh_agent=$agent" "OMPI_MCA_orte_default_hostfile=$cluster_dir/hostfile" \
  "PRTE_MCA_plm_ssh_agent=$agent" "PRTE_MCA_prte_default_hostfile=$cluster_dir/hostfile" \
  "PRTE_MCA_prte_tmpdir_base=$cluster_dir/tmp" "HYDRA_LAUNCHER=ssh" \
  "HYDRA_LAUNCHER_EXEC=$agent" "HYDRA_HOST_FILE=$cluster_dir/machinefile"; do
  expect_output "export $v"
done
cp "$work/out" "$work/env"
expect_ok on_cluster env
checks=$((checks + 1))
missing=$(sed -n 's/^export //p' "$work/env" | grep -vxFf "$work/out")
[ -z "$missing" ] || fail "env prints what run does not set: $missing"
checks=$((checks + 1))
[ "$(cat "$cluster_dir/machinefile")" = "$(printf 'node%d:2\n' 0 1 2 3)" ] ||
  fail "machinefile: $(cat "$cluster_dir/machinefile")"

# More slots than cores: Open MPI is told to yield when idle; a user's
# own setting is kept.
expect_ok on_cluster sh -c 'echo "yield=${OMPI_MCA_mpi_yield_when_idle-unset}"'
expect_output "yield=unset"

# A job killed with its mpirun (SIGKILL) leaves its ranks running on the
# nodes; down stops them.
marker=$((600 + $$ % 1000)).25
on_cluster mpirun -np 8 sleep "$marker" > /dev/null 2>&1 &
job=$!
for _ in $(seq 100); do
  [ "$(pgrep -fc "^sleep $marker\$")" -ge 8 ] && break
  sleep 0.1
done
checks=$((checks + 1))
[ "$(pgrep -fc "^sleep $marker\$")" -eq 8 ] || fail "the job's 8 ranks did not start"
pkill -KILL -P "$job" 2> /dev/null
kill -KILL "$job" 2> /dev/null
wait "$job" 2> /dev/null
expect_ok cluster down
checks=$((checks + 1))
left=$(cluster_leftovers; pgrep -af "^sleep $marker\$")
[ -z "$left" ] || fail "left behind after down: $left"

# A down that stopped halfway (a namespace and a node's UTS mount already
# gone) is finished by the next one.
cluster_up 4 --slots 4 --rate 1gbit
expect_ok on_cluster sh -c 'echo "yield=${OMPI_MCA_mpi_yield_when_idle-unset}"'
expect_output "yield=1"
expect_ok env OMPI_MCA_mpi_yield_when_idle=0 "$CLUSTER" --name "$cluster_name" run -- \
  sh -c 'echo "yield=$OMPI_MCA_mpi_yield_when_idle"'
expect_output "yield=0"
ip netns del "$cluster_name-node1"
umount "$cluster_dir/uts/node2"
expect_ok cluster down
expect_gone "a down that finished an earlier one"

# Two levels: 2 leaves of 2 nodes, trunks at a quarter of the node links,
# and the topology.conf that says so.
cluster_up 4 --slots 2 --rate 100mbit --leaves 2 --trunk-rate 25mbit
expect_qdisc "$cluster_name-net" up0 "tbf rate 25Mbit"
expect_qdisc "$cluster_name-net" down1 "tbf rate 25Mbit"
expect_qdisc "$cluster_name-node3" eth0 "tbf rate 100Mbit"
checks=$((checks + 1))
printf '%s\n' 'SwitchName=leaf0 Nodes=node[0-1]' 'SwitchName=leaf1 Nodes=node[2-3]' \
  'SwitchName=spine Switches=leaf[0-1]' > "$work/topology.expected"
grep -v '^#' "$cluster_dir/topology.conf" | cmp -s - "$work/topology.expected" ||
  fail "topology.conf: $(cat "$cluster_dir/topology.conf")"
checks=$((checks + 1))
[ "$(ip -n "$cluster_name-net" -o link show master leaf1 | grep -c ': p[0-9]')" -eq 2 ] ||
  fail "leaf1 does not hold 2 node links"
expect_ok cluster rate 50mbit --trunk-rate 10mbit
expect_qdisc "$cluster_name-net" up1 "tbf rate 10Mbit"
expect_qdisc "$cluster_name-node0" eth0 "tbf rate 50Mbit"
# A trunk that tc will not reshape (its device gone): every link back as
# it was, status unchanged.
ip -n "$cluster_name-net" link del down1
expect_fail 1 "the links are back at 50mbit, the trunks at 10mbit" cluster rate 60mbit --trunk-rate 12mbit
expect_qdisc "$cluster_name-node0" eth0 "tbf rate 50Mbit"
expect_qdisc "$cluster_name-net" up0 "tbf rate 10Mbit"
expect_ok cluster status
expect_output "cluster $cluster_name: 4 nodes x 2 slots, links 50mbit"
expect_output "two levels: 2 leaf switches, trunks 10mbit (topology: $cluster_dir/topology.conf)"
expect_ok cluster down

# An up that fails halfway (node2's namespace name is taken by someone
# else) removes what it made and leaves the other's namespace alone.
ip netns add "$cluster_name-node2"
expect_fail 1 "up failed; removed what it made" cluster up 4
checks=$((checks + 1))
left=$(cluster_leftovers)
[ "$left" = "namespace: $cluster_name-node2" ] || fail "after a failed up: '$left'"
ip netns del "$cluster_name-node2"

# An up stopped by a signal right after it made a namespace (an ip
# wrapper that signals up after "ip netns add NAME-node1") leaves
# nothing; one killed there (SIGKILL) leaves what down then removes.
mkdir -p "$work/bin"
printf '%s\n' '#!/bin/sh' "$(command -v ip) \"\$@\"; rc=\$?" \
  "[ \"\$*\" != \"netns add $cluster_name-node1\" ] || kill -\$STOP_SIGNAL \$PPID" \
  'exit $rc' > "$work/bin/ip"
chmod +x "$work/bin/ip"
for sig in TERM INT HUP; do
  expect_fail 1 "up failed; removed what it made" \
    env --default-signal=INT PATH="$work/bin:$PATH" STOP_SIGNAL=$sig "$CLUSTER" --name "$cluster_name" up 3
  expect_gone "an up stopped by SIG$sig"
done
env PATH="$work/bin:$PATH" STOP_SIGNAL=KILL "$CLUSTER" --name "$cluster_name" up 3 > /dev/null 2>&1
checks=$((checks + 1))
[ -n "$(cluster_leftovers)" ] || fail "an up killed halfway left nothing for down to do"
expect_ok cluster down
expect_gone "down after an up killed halfway"

# A delay needs netem, which tbf cannot do: said plainly when missing.
if unshare --net sh -c 'tc qdisc add dev lo root netem delay 1ms' 2> /dev/null; then
  cluster_up 2 --rate 100mbit --delay 1ms
  checks=$((checks + 1))
  ip netns exec "$cluster_name-node0" tc qdisc show dev eth0 | grep -q netem || fail "no netem on node0"
  expect_ok cluster down
else
  expect_fail 1 "this kernel does not have (sch_netem)" cluster up 2 --rate 100mbit --delay 1ms
fi
expect_gone "the end"
finish

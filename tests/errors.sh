#!/bin/sh
# One case per error message: exact text on standard error, the documented
# exit status, no output file left behind, and for usage errors and bad
# input (2, 3) nothing on standard output: statuses 1 and 4 may follow the
# comparison table.
. "${top_srcdir:-.}/tests/lib.sh"
cd "$SRC/tests/data" || exit 1
L=../../graphs/linear-8.xml
TRY="Try 'remat-plan --help' for more information."

# expect STATUS 'EXPECTED STDERR' ARGS...
expect() {
	want_rc=$1
	want_err=$2
	shift 2
	rm -f "$TMP/out.xml"
	"$RP" "$@" >"$TMP/stdout" 2>"$TMP/stderr"
	rc=$?
	got=$(cat "$TMP/stderr")
	if [ "$rc" -ne "$want_rc" ]; then
		fail "$*: exit status $rc, want $want_rc"
	elif [ "$got" != "$want_err" ]; then
		fail "$*: stderr
  got:  $got
  want: $want_err"
	elif [ -e "$TMP/out.xml" ] || ls "$TMP" | grep -q tmp; then
		fail "$*: an output file was left behind"
	elif [ -s "$TMP/stdout" ] && { [ "$want_rc" -eq 2 ] || [ "$want_rc" -eq 3 ]; }; then
		fail "$*: unexpected standard output: $(head -3 "$TMP/stdout")"
	else
		pass "$*"
	fi
}

# graph GRAPH 'MESSAGE': a bad graph file, with an output file requested.
graph() {
	expect 3 "remat-plan: $2" --graph "$1" --budget 1G -o "$TMP/out.xml"
}

# Malformed files and GraphML structure.
graph bad/empty-file.xml "bad/empty-file.xml:1: malformed XML: Document is empty"
graph bad/truncated.xml "bad/truncated.xml:12: malformed XML: Premature end of data in tag graph line 10"
# libxml2's limits, named by the parser's first error in the file's
# terms (the last one, "Premature end of data", named no cause).
graph bad/too-deep.xml "bad/too-deep.xml:7: malformed XML: Excessive depth in document: 256 use XML_PARSE_HUGE option (elements nested more than 256 deep inside the root)"
{ printf '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">\n<graph>\n<node id="'
  head -c 11000000 /dev/zero | tr '\0' n
  printf '"/>\n</graph>\n</graphml>\n'; } >"$TMP/huge-id.xml"
graph "$TMP/huge-id.xml" "$TMP/huge-id.xml:3: malformed XML: AttValue length too long (a tag or text longer than the parser takes, about 10 MB)"
rm -f "$TMP/huge-id.xml"
graph bad/not-graphml.xml "bad/not-graphml.xml:2: root element is 'plan', expected 'graphml'"
graph bad/key-no-id.xml "bad/key-no-id.xml:9: <key> has no id attribute"
graph bad/key-dup.xml "bad/key-dup.xml:10: duplicate key id 'c' (first declared at line 3)"
graph bad/no-graph.xml "bad/no-graph.xml:2: no <graph> element"
graph bad/foreign-root.xml "bad/foreign-root.xml:2: root element 'graphml' is in namespace 'http://example.com/x', expected http://graphml.graphdrawing.org/xmlns or none"
graph bad/undeclared-prefix.xml "bad/undeclared-prefix.xml:19: <node> has no id attribute"
graph bad/two-graphs.xml "bad/two-graphs.xml:13: more than one <graph> element (one graph per file)"
graph bad/undirected.xml 'bad/undirected.xml:10: graph must be directed (edgedefault="directed")'
graph bad/nested.xml "bad/nested.xml:11: nested graphs are not supported"
graph bad/hyperedge.xml "bad/hyperedge.xml:12: hyperedges are not supported"
graph bad/empty.xml "bad/empty.xml:10: graph has no nodes"
# Nodes and their attributes.
graph bad/node-no-id.xml "bad/node-no-id.xml:11: <node> has no id attribute"
graph bad/node-dup.xml "bad/node-dup.xml:13: duplicate node id 'a' (first defined at line 11)"
graph bad/data-no-key.xml "bad/data-no-key.xml:11: <data> has no key attribute"
graph bad/data-undeclared.xml "bad/data-undeclared.xml:11: <data> refers to undeclared key 'zz'"
graph bad/two-costs.xml "bad/two-costs.xml:11: node 'a' has two values for 'cost'"
graph bad/no-cost.xml "bad/no-cost.xml:11: node 'a' has no cost"
graph bad/no-cost-key.xml 'bad/no-cost-key.xml:11: node '\''a'\'' has no cost (no <key for="node" attr.name="cost"> is declared)'
graph bad/no-mem.xml "bad/no-mem.xml:11: node 'a' has no mem"
graph bad/default-bad.xml "bad/default-bad.xml:3: node 'b': cost 'unknown' is not a number"
graph bad/cost-nan.xml "bad/cost-nan.xml:11: node 'a': cost 'fast' is not a number"
graph bad/cost-negative.xml "bad/cost-negative.xml:11: node 'a': cost -2.5 is negative"
graph bad/mem-fraction.xml "bad/mem-fraction.xml:11: node 'a': mem '1.5' is not a whole number of bytes"
graph bad/mem-negative.xml "bad/mem-negative.xml:11: node 'a': mem -3 is negative"
graph bad/mem-huge.xml "bad/mem-huge.xml:11: node 'a': mem 99999999999999999999 is too large"
graph bad/total-huge.xml "bad/total-huge.xml:10: the graph's memory (fixed_mem plus every node's mem and workspace) exceeds 4 EiB"
# Sums that would overflow: two mem values of 2^62, mem + workspace of
# 2^63, a workspace default of 2^62 on two nodes; costs whose sum is not
# finite; a byte count that underflows a double.
graph bad/mem-sum-overflow.xml "bad/mem-sum-overflow.xml:10: the graph's memory (fixed_mem plus every node's mem and workspace) exceeds 4 EiB"
graph bad/mem-workspace-overflow.xml "bad/mem-workspace-overflow.xml:10: the graph's memory (fixed_mem plus every node's mem and workspace) exceeds 4 EiB"
graph bad/workspace-default-overflow.xml "bad/workspace-default-overflow.xml:10: the graph's memory (fixed_mem plus every node's mem and workspace) exceeds 4 EiB"
graph bad/cost-sum-huge.xml "bad/cost-sum-huge.xml:10: the node costs sum to inf, more than the 6.25e+298 supported for 3 nodes (a plan's cost, with its recomputations, must stay finite)"
graph bad/mem-tiny.xml "bad/mem-tiny.xml:11: node 'a': mem '1e-400' is not a whole number of bytes"
# Numbers are decimal: strtod() took hexadecimal ones (remat-exec did not).
sed 's|<data key="c">fast<|<data key="c">0x10<|' bad/cost-nan.xml >"$TMP/cost-hex.xml"
graph "$TMP/cost-hex.xml" "$TMP/cost-hex.xml:11: node 'a': cost '0x10' is not a number"
sed 's|<data key="m">1.5<|<data key="m"> 0X8<|' bad/mem-fraction.xml >"$TMP/mem-hex.xml"
graph "$TMP/mem-hex.xml" "$TMP/mem-hex.xml:11: node 'a': mem '0X8' is not a whole number of bytes"
rm -f "$TMP/cost-hex.xml" "$TMP/mem-hex.xml"
# Byte counts are read exactly or refused, digits and exponent as they
# are written (through a double, 4611686018427387903.0 was too large,
# 9007199254740993e0 read as ...992 and 1.00000000000000000001 as 1), a
# negative count of any size called negative (not "too large").
for v in "4611686018427387903.0|=4611686018427387903" "9007199254740993e0|=9007199254740993" \
    "12.5e1|=125" "0.0050e3|=5" "+7.|=7" \
    "1.00000000000000000001|mem '1.00000000000000000001' is not a whole number of bytes" \
    "9007199254740991.5|mem '9007199254740991.5' is not a whole number of bytes" \
    "125e-1|mem '125e-1' is not a whole number of bytes" \
    "1e400|mem 1e400 is too large" \
    "-9999999999999999999|mem -9999999999999999999 is negative" "-1e19|mem -1e19 is negative"; do
	sed "s|<data key=\"m\">1.5<|<data key=\"m\">${v%%|*}<|" bad/mem-fraction.xml >"$TMP/mem-v.xml"
	case ${v#*|} in
	=*)
		"$RP" --graph "$TMP/mem-v.xml" --info -f csv >"$TMP/stdout" 2>&1 &&
		    [ "$(tail -1 "$TMP/stdout" | cut -d, -f11)" = "${v#*|=}" ] &&
		    pass "mem ${v%%|*} is read exactly" ||
		    fail "mem ${v%%|*}: $(tail -1 "$TMP/stdout")" ;;
	*)
		graph "$TMP/mem-v.xml" "$TMP/mem-v.xml:11: node 'a': ${v#*|}" ;;
	esac
done
rm -f "$TMP/mem-v.xml"
graph bad/workspace-bad.xml "bad/workspace-bad.xml:11: node 'a': workspace 'lots' is not a whole number of bytes"
graph bad/kind-bad.xml "bad/kind-bad.xml:11: node 'a': kind 'sideways' is not 'forward' or 'backward'"
graph bad/recompute-bad.xml "bad/recompute-bad.xml:11: node 'a': recompute 'maybe' is not 'true' or 'false'"
graph bad/output-bad.xml "bad/output-bad.xml:11: node 'a': output 'perhaps' is not 'true' or 'false'"
graph bad/fixed-mem-bad.xml "bad/fixed-mem-bad.xml:11: fixed_mem '-1' is not a non-negative whole number of bytes"
# Edges and graph structure.
graph bad/edge-undirected.xml "bad/edge-undirected.xml:13: undirected edge in a directed graph"
graph bad/edge-directed-false.xml "bad/edge-directed-false.xml:13: undirected edge in a directed graph"
# directed is a boolean as GraphML has it: 0 is false too, and a word
# that is neither is not taken as true.
graph bad/edge-directed-zero.xml "bad/edge-directed-zero.xml:13: undirected edge in a directed graph"
graph bad/edge-directed-bad.xml "bad/edge-directed-bad.xml:13: edge attribute directed='no' is not a boolean (true, false, 1 or 0)"
# The graph's values once each, as a node's; a key of <data> declared
# wherever it is (of an edge, of the file), though only the graph's and
# the nodes' are read.
graph bad/graph-data-twice.xml "bad/graph-data-twice.xml:12: the graph has two values for 'fixed_mem'"
graph bad/edge-data-undeclared.xml "bad/edge-data-undeclared.xml:13: <data> refers to undeclared key 'zz'"
graph bad/root-data-undeclared.xml "bad/root-data-undeclared.xml:10: <data> refers to undeclared key 'zz'"
# A DTD that gives elements a namespace by default would make them
# foreign unseen (every edge dropped); a prefix with no namespace declared
# makes a name of its own, as an attribute's does.
graph bad/doctype-xmlns.xml "bad/doctype-xmlns.xml:2: a DTD default for the namespace declaration 'xmlns' of element 'edge' is not supported"
graph bad/prefixed-root.xml "bad/prefixed-root.xml:2: root element is 'x:graphml', expected 'graphml'"
# (not where it changes nothing: GraphML's namespace as the default one,
# a prefix given a foreign one; but GraphML's given to a prefix would make
# its elements GraphML's)
for d in 'graphml xmlns CDATA #FIXED "http://graphml.graphdrawing.org/xmlns"|' \
    'edge xmlns:y CDATA #FIXED "urn:y"|' \
    "edge xmlns:y CDATA #FIXED \"http://graphml.graphdrawing.org/xmlns\"|\$TMP/dtd.xml:2: a DTD default for the namespace declaration 'xmlns:y' of element 'edge' is not supported"; do
	sed "s|<!ATTLIST edge xmlns CDATA \"urn:foreign\">|<!ATTLIST ${d%%|*}>|" bad/doctype-xmlns.xml >"$TMP/dtd.xml"
	if [ -z "${d#*|}" ]; then
		"$RP" --graph "$TMP/dtd.xml" --info >"$TMP/stdout" 2>&1 &&
		    grep -q '^graph dtd: 2 nodes, 1 edge,' "$TMP/stdout" &&
		    pass "a DTD default <!ATTLIST ${d%%|*}> changes nothing: read" ||
		    fail "<!ATTLIST ${d%%|*}>: $(head -1 "$TMP/stdout")"
	else
		graph "$TMP/dtd.xml" "$(eval echo "\"${d#*|}\"")"
	fi
done
rm -f "$TMP/dtd.xml"
sed 's|<node id="b">|<zz:node id="q"><data key="c">1</data><data key="m">1000</data></zz:node><node id="b">|; s| directed="false"||' \
    bad/edge-directed-false.xml >"$TMP/prefixed-node.xml"
"$RP" --graph "$TMP/prefixed-node.xml" --info >"$TMP/stdout" 2>"$TMP/stderr"
grep -q '^graph prefixed-node: 2 nodes, 1 edge,.*peak 2 B' "$TMP/stdout" &&
    pass "an element with an undeclared prefix is not a node" ||
    fail "an element with an undeclared prefix: $(head -1 "$TMP/stdout") $(cat "$TMP/stderr")"
rm -f "$TMP/prefixed-node.xml"
graph bad/graph-in-edge.xml "bad/graph-in-edge.xml:13: nested graphs are not supported"
graph bad/hyperedge-in-node.xml "bad/hyperedge-in-node.xml:11: hyperedges are not supported"
graph bad/key-conflict.xml "bad/key-conflict.xml:4: key 'c2' gives 'cost' the default '2', but key 'c' (line 3) gives it '1'"
graph bad/nul-after.xml "bad/nul-after.xml:62: a NUL byte in the file (it is not a text document)"
graph bad/edge-no-source.xml "bad/edge-no-source.xml:12: <edge> has no source attribute"
graph bad/edge-unknown-target.xml "bad/edge-unknown-target.xml:13: edge target 'conv9' is not a node"
graph bad/self-loop.xml "bad/self-loop.xml:14: edge from 'b' to itself (self loops are not allowed)"
graph bad/cycle.xml "bad/cycle.xml:12: graph has a cycle through node 'a': 'a' -> 'b' -> 'c' -> 'a'"
# Unreadable files.
graph does-not-exist.xml "cannot open 'does-not-exist.xml': No such file or directory"
graph bad "cannot read 'bad': Is a directory"
# What is not a regular file is refused before anything is read: no read
# without end (/dev/zero), no wait for a writer (a FIFO).
graph /dev/zero "cannot read '/dev/zero': not a regular file"
mkfifo "$TMP/fifo" && graph "$TMP/fifo" "cannot read '$TMP/fifo': not a regular file"
rm -f "$TMP/fifo"
# A file over 2 GiB is refused by its size, unread (sparse: no disk used).
if truncate -s 3G "$TMP/sparse.xml" 2>/dev/null; then
	graph "$TMP/sparse.xml" "$TMP/sparse.xml: file is too large (over 2 GiB)"
	rm -f "$TMP/sparse.xml"
fi

# Plan files given to --check.
plan() {
	expect 3 "remat-plan: $3" --graph "$1" --check "$2"
}
plan $L plans/malformed.xml "plans/malformed.xml:4: malformed XML: Premature end of data in tag compute line 3"
plan $L plans/root.xml "plans/root.xml:2: root element is 'graphml', expected 'plan'"
plan $L plans/version.xml "plans/version.xml:2: plan format version '2' is not supported (this is version 1)"
plan $L plans/no-node.xml "plans/no-node.xml:3: <compute> has no node attribute"
plan $L plans/unknown-node.xml "plans/unknown-node.xml:3: compute of 'conv9', which is not a node of graph 'linear-8'"
plan $L plans/no-reg.xml "plans/no-reg.xml:3: <compute> has no reg attribute"
plan $L plans/empty-reg.xml "plans/empty-reg.xml:3: <compute> has an empty reg attribute"
plan $L plans/entity.xml "plans/entity.xml:3: entity declarations are not supported (entity 'a')"
plan $L plans/dtd-default.xml "plans/dtd-default.xml:6: <compute> has no reg attribute"
# (a default namespace would make a statement foreign, unseen: this plan
# frees an output, and was called valid)
plan good/small.xml plans/dtd-xmlns.xml "plans/dtd-xmlns.xml:2: a DTD default for the namespace declaration 'xmlns' of element 'free' is not supported"
plan $L plans/not-live.xml "plans/not-live.xml:3: invalid plan: compute 'f1' reads 'f0', which is not live"
plan $L plans/double-free.xml "plans/double-free.xml:5: invalid plan: free of register 'a', which is not live"
plan $L plans/reg-live.xml "plans/reg-live.xml:4: invalid plan: compute 'f1' into register 'a', which is still live (holding 'f0')"
plan $L plans/never.xml "plans/never.xml: invalid plan: node 'f1' is never computed"
plan good/small.xml plans/output-freed.xml "plans/output-freed.xml: invalid plan: output node 'b' is not live at the end of the plan"
plan good/small.xml plans/recompute-false.xml "plans/recompute-false.xml:6: invalid plan: node 'drop' is computed again, but it has recompute=false"
plan good/small.xml plans/nested-free.xml "plans/nested-free.xml:4: invalid plan: compute 'drop' reads 'a', which is not live"
# Solutions of the exported MILP read back.
expect 3 "remat-plan: cannot open 'missing.sol': No such file or directory" \
	--graph $L --budget 6 --read-solution missing.sol -o "$TMP/out.xml"
expect 3 "remat-plan: plans/never.xml: no values of R variables found" \
	--graph $L --budget 6 --read-solution plans/never.xml -o "$TMP/out.xml"
# A solver's file that says it holds no solution (glpsol on an infeasible
# model; CBC's first line): it read as a plan of no R at all, "valid".
expect 3 "remat-plan: solutions/no-solution.sol: the solver found no solution (GLPK's status: no integer feasible solution)" \
	--graph $L --budget 6 --read-solution solutions/no-solution.sol -o "$TMP/out.xml"
printf 'Infeasible - objective value 0.00000000\n      0 R_0_0   1   0\n' >"$TMP/cbc.sol"
expect 3 "remat-plan: $TMP/cbc.sol: the solver found no solution (its first line: 'Infeasible - objective value 0.00000000')" \
	--graph $L --budget 6 --read-solution "$TMP/cbc.sol" -o "$TMP/out.xml"
rm -f "$TMP/cbc.sol"
expect 3 "remat-plan: solutions/bad-index.sol:2: 'R_99_0' is not a variable of this model" \
	--graph $L --budget 6 --read-solution solutions/bad-index.sol
expect 3 "remat-plan: solutions/infeasible.sol: the solution is not a valid plan: node 'drop' is computed again, but it has recompute=false" \
	--graph good/small.xml --budget 30 --read-solution solutions/infeasible.sol -o "$TMP/out.xml"
plan $L missing-plan.xml "cannot open 'missing-plan.xml': No such file or directory"
plan $L /dev/zero "cannot read '/dev/zero': not a regular file"
# Statements in a foreign namespace are extensions, never executed; so
# are names with a prefix no namespace is declared for, which are names of
# their own (x:compute, y:reg).
plan $L plans/foreign-ns.xml "plans/foreign-ns.xml: invalid plan: node 'f0' is never computed"
plan $L plans/undeclared-prefix.xml "plans/undeclared-prefix.xml: invalid plan: node 'f0' is never computed"
plan $L plans/undeclared-root.xml "plans/undeclared-root.xml:2: root element is 'x:plan', expected 'plan'"
plan $L plans/undeclared-attr.xml "plans/undeclared-attr.xml:3: <compute> has no reg attribute"
# Solution files: no read without end, indices that do not wrap, lines of
# any length, a directory said to be one.
expect 3 "remat-plan: cannot read '/dev/zero': not a regular file" \
	--graph $L --budget 6 --read-solution /dev/zero
expect 3 "remat-plan: cannot read 'solutions': Is a directory" \
	--graph $L --budget 6 --read-solution solutions
printf 'R_4294967297_0 1\n' >"$TMP/wrap.sol"
expect 3 "remat-plan: $TMP/wrap.sol:1: 'R_4294967297_0' is not a variable of this model" \
	--graph $L --budget 6 --read-solution "$TMP/wrap.sol"
{ printf '%5000s\n' '' | tr ' ' x; printf 'R_99_0 1\n'; } >"$TMP/long.sol"
expect 3 "remat-plan: $TMP/long.sol:2: 'R_99_0' is not a variable of this model" \
	--graph $L --budget 6 --read-solution "$TMP/long.sol"
rm -f "$TMP/wrap.sol" "$TMP/long.sol"

# Budgets that no plan can meet: status 1.
expect 1 "remat-plan: budget 2 B (2 bytes) is below the smallest budget any plan can need: 3 B (3 bytes: node 'g7' with its inputs, output and workspace)" \
	--graph $L --budget 2 -o "$TMP/out.xml"
expect 1 "remat-plan: budget 1 B (1 byte) is below the smallest budget any plan can need: 3 B (3 bytes: node 'g7' with its inputs, output and workspace)" \
	--graph $L --budget 1
# Within 1.1 times the smallest budget known, a deeper search proves that
# no plan fits (the quick search's figure is 262282332 bytes), at once,
# instead of a run of every strategy finding none (16 s at -t 10).
expect 1 "remat-plan: budget 251 MiB (263000000 bytes) is below the smallest budget any plan can need: 251 MiB (263598164 bytes: holding all outputs at the end, whatever is kept or recomputed for them, as a search over the order of their ancestors proves)" \
	--graph ../../graphs/unet-b2-s128-c2.xml --budget 263000000 -t 40 -o "$TMP/out.xml"
expect 1 "remat-plan: budget 20 B (20 bytes) is below the smallest budget any plan can need: 30 B (30 bytes: fixed memory and all outputs held at the end)" \
	--graph good/outputs.xml --budget 20
# on one line whatever the node's id holds
sed 's|"g7"|"g7\&#10;x"|g' $L >"$TMP/nl.xml"
expect 1 "remat-plan: budget 2 B (2 bytes) is below the smallest budget any plan can need: 3 B (3 bytes: node 'g7\\nx' with its inputs, output and workspace)" \
	--graph "$TMP/nl.xml" --budget 2
rm -f "$TMP/nl.xml"
expect 1 "remat-plan: no strategy fits the budget; the smallest budget any plan could need is 3 B (3 bytes: node 'g7' with its inputs, output and workspace)" \
	--graph $L --budget 6 --strategy checkpoint-all -f csv -o "$TMP/out.xml"

# With -o -, a CSV or JSON report on standard error is all there is
# there: the line saying why no plan fits made the JSON not parse.
for b in 2 6; do
	"$RP" --graph $L --budget $b -s checkpoint-all -f json -o - \
	    >"$TMP/stdout" 2>"$TMP/stderr"
	rc=$?
	[ $rc = 1 ] && [ ! -s "$TMP/stdout" ] && [ "$(wc -l <"$TMP/stderr")" = 1 ] &&
	    grep -q '^{.*"picked":null.*}$' "$TMP/stderr" &&
	    pass "-f json -o - at $b bytes: the JSON alone on standard error" ||
	    fail "-f json -o - at $b bytes: status $rc, $(cat "$TMP/stderr")"
done
"$RP" --graph $L --budget 6 -s checkpoint-all -f csv -o - >"$TMP/stdout" 2>"$TMP/stderr"
rc=$?
[ $rc = 1 ] && [ "$(grep -vc '^\(strategy\|checkpoint-all\|lower bound\|any-plan bound\),' "$TMP/stderr")" = 0 ] &&
    pass "-f csv -o -: the CSV alone on standard error" ||
    fail "-f csv -o -: status $rc, $(cat "$TMP/stderr")"

# DTR's failure modes are reported in the table, with status 1.
expect 1 "remat-plan: no strategy fits the budget; the smallest budget any plan could need is 3 B (3 bytes: node 'g15' with its inputs, output and workspace)" \
	--graph ../../graphs/linear-16.xml --budget 20% --strategy dtr --dtr-heuristic lru -o "$TMP/out.xml"
# (the node that failed is a recomputation for the one the program was at)
grep -q "lru: thrashing: cost passed 3x the baseline at 'f0' (recomputed for 'g8')" "$TMP/stdout" &&
    grep -q "^dtr  *no plan" "$TMP/stdout" && pass "thrashing is reported in the table, with the node the program was at" || fail "thrashing is not reported in the table"
# Both streams into one file (2>&1 into a pipe or a log): the report
# first, the line saying why no plan fits after it, not inside it.
"$RP" --graph ../../graphs/linear-16.xml --budget 20% --strategy dtr \
    --dtr-heuristic lru >"$TMP/both" 2>&1
[ "$(tail -n 1 "$TMP/both")" = "remat-plan: no strategy fits the budget; the smallest budget any plan could need is 3 B (3 bytes: node 'g15' with its inputs, output and workspace)" ] &&
    head -n 1 "$TMP/both" | grep -q '^graph ' &&
    pass "2>&1: the report, then the line on standard error" ||
    fail "2>&1: the message is not after the report: $(head -n 2 "$TMP/both")"
expect 1 "remat-plan: no strategy fits the budget; the smallest budget any plan could need is 59.0 MiB (61865984 bytes: node 'grad_dec0_cat' with its inputs, output and workspace)" \
	--graph ../../graphs/unet-3.xml --budget 60% --strategy dtr --dtr-heuristic lru --dtr-eager
grep -q "lru: out of memory: 'grad_dec0_relu2' with its locked inputs does not fit (recomputed for 'grad_enc0_relu2')" "$TMP/stdout" &&
    pass "out of memory is reported in the table, with the node the program was at" || fail "out of memory is not reported in the table"

# Output that cannot be written: status 4, nothing left behind, and said
# before any work (the report is not printed).
expect 4 "remat-plan: cannot write '$TMP/no-such-dir/out.xml': No such file or directory" \
	--graph $L --budget 60% -o "$TMP/no-such-dir/out.xml"
[ ! -s "$TMP/stdout" ] && pass "a missing output directory is found before any work" ||
    fail "a missing output directory is found only after planning"
expect 4 "remat-plan: cannot write '$L/out.xml': Not a directory" \
	--graph $L --budget 60% -o "$L/out.xml"
# Nor is a solution file read overwritten.
printf 'R_0_0 1\n' >"$TMP/s.sol"
expect 2 "remat-plan: cannot write '$TMP/s.sol': it is the solution file read (--read-solution)
$TRY" --graph $L --budget 6 --read-solution "$TMP/s.sol" -o "$TMP/s.sol"
[ "$(cat "$TMP/s.sol")" = "R_0_0 1" ] && pass "the solution file is unchanged" ||
    fail "the solution file was changed"
rm -f "$TMP/s.sol"

# The input graph is never overwritten (a usage error, before any work),
# nor is a read-only file or a directory (status 4, before any work).
cp $L "$TMP/g.xml"
expect 2 "remat-plan: cannot write '$TMP/g.xml': it is the input graph
$TRY" --graph "$TMP/g.xml" --budget 60% -o "$TMP/g.xml"
ln -s g.xml "$TMP/link.xml"
expect 2 "remat-plan: cannot write '$TMP/link.xml': it is the input graph
$TRY" --graph "$TMP/g.xml" --budget 60% --write-lp "$TMP/link.xml"
cmp -s $L "$TMP/g.xml" && pass "the input graph is unchanged" || fail "the input graph was changed"
rm -f "$TMP/g.xml" "$TMP/link.xml"
# Nor is the file standard output goes to (expect redirects it to one):
# renamed over, it lost the report and what it held before.
expect 2 "remat-plan: cannot write '/dev/stdout': it is the file of the standard output or error, where the report goes (-o - writes the plan to standard output)
$TRY" --graph $L --budget 60% -o /dev/stdout
# A pipe there would carry the plan and the report mixed.
"$RP" --graph $L --budget 60% -o /dev/stdout 2>"$TMP/stderr" | cat >"$TMP/stdout"
[ "$(head -1 "$TMP/stderr")" = "remat-plan: cannot write '/dev/stdout': it is the file of the standard output or error, where the report goes (-o - writes the plan to standard output)" ] &&
    [ ! -s "$TMP/stdout" ] && pass "-o /dev/stdout onto a pipe: a usage error" ||
    fail "-o /dev/stdout onto a pipe: $(head -1 "$TMP/stderr"), $(head -1 "$TMP/stdout")"
# A directory that access() calls writable but where no file can be
# made (/proc; a read-only mount) is found before any planning (the plan
# was made, then refused, status 4 either way): no report is printed.
expect 4 "remat-plan: cannot write '/proc/x.xml': No such file or directory" \
	--graph $L --budget 60% -o /proc/x.xml
[ -s "$TMP/stdout" ] && fail "-o /proc/x.xml: a report was printed first" ||
    pass "-o /proc/x.xml: refused before any planning"
cp $L "$TMP/ro.xml" && chmod 444 "$TMP/ro.xml"
expect 4 "remat-plan: cannot write '$TMP/ro.xml': the file is read-only" \
	--graph $L --budget 60% -o "$TMP/ro.xml"
rm -f "$TMP/ro.xml"
mkdir "$TMP/d"
expect 4 "remat-plan: cannot write '$TMP/d': Is a directory" \
	--graph $L --budget 60% --write-mps "$TMP/d"
rmdir "$TMP/d"
# A replaced plan keeps its file's mode.
"$RP" --graph $L --budget 60% -o "$TMP/mode.xml" >/dev/null && chmod 640 "$TMP/mode.xml" &&
    "$RP" --graph $L --budget 60% -o "$TMP/mode.xml" >/dev/null &&
    [ "$(stat -c %a "$TMP/mode.xml")" = 640 ] && pass "a replaced plan keeps its mode" ||
    fail "a replaced plan does not keep its mode: $(stat -c %a "$TMP/mode.xml")"
rm -f "$TMP/mode.xml"
# What the model files hold is said in the format asked for, and a budget
# no plan can meet is said (the model has no solution).
"$RP" --graph $L --budget 6 --write-mps "$TMP/m.mps" -f json >"$TMP/stdout" 2>"$TMP/stderr"
rc=$?
[ $rc = 0 ] && [ ! -s "$TMP/stderr" ] &&
    grep -q '^{"graph":"linear-8",.*"budget":6,"rows":[0-9]*,.*"mps":"[^"]*m.mps","lp":null}$' "$TMP/stdout" &&
    pass "--write-mps -f json: the model's size as JSON" ||
    fail "--write-mps -f json: status $rc, $(cat "$TMP/stdout") $(cat "$TMP/stderr")"
"$RP" --graph $L --budget 6 --write-lp "$TMP/m.lp" -f csv >"$TMP/stdout" 2>&1
[ "$(head -1 "$TMP/stdout")" = "budget_bytes,rows,columns,binaries,nonzeros,eliminated,mps,lp" ] &&
    grep -q '^6,[0-9]*,[0-9]*,[0-9]*,[0-9]*,[0-9]*,,.*m.lp$' "$TMP/stdout" &&
    pass "--write-lp -f csv: the model's size as CSV" ||
    fail "--write-lp -f csv: $(cat "$TMP/stdout")"
"$RP" --graph $L --budget 2 --write-mps "$TMP/m.mps" >"$TMP/stdout" 2>"$TMP/stderr"
rc=$?
[ $rc = 0 ] && [ -s "$TMP/m.mps" ] && [ "$(cat "$TMP/stderr")" = "remat-plan: note: budget 2 B (2 bytes) is below the smallest budget any plan can need, 3 B (3 bytes: node 'g7' with its inputs, output and workspace): the model has no solution" ] &&
    pass "--write-mps below the smallest budget: written, and said" ||
    fail "--write-mps below the smallest budget: status $rc, $(cat "$TMP/stderr")"
rm -f "$TMP/m.mps" "$TMP/m.lp"
# Model files past a file size limit: an error, not SIGXFSZ, and no file.
for opt in --write-mps --write-lp; do
	(ulimit -f 4; "$RP" --graph ../../graphs/unet-3.xml --budget 60% $opt "$TMP/model" \
	    >/dev/null 2>"$TMP/stderr"; echo $? >"$TMP/rc")
	if [ "$(cat "$TMP/rc")" = 4 ] &&
	    [ "$(cat "$TMP/stderr")" = "remat-plan: cannot write '$TMP/model': File too large" ] &&
	    ! ls "$TMP" | grep -q '^model'; then
		pass "$opt past ulimit -f: status 4, nothing left"
	else
		fail "$opt past ulimit -f: status $(cat "$TMP/rc"), $(cat "$TMP/stderr"), $(ls "$TMP")"
	fi
	rm -f "$TMP"/model* "$TMP/rc"
done
# A model too large to hold is refused, sized first, not built (a dense
# 2,000-node DAG: about 97M nonzeros).
"$(dirname "$RP")/tools/gengraph" random 2000 100000 3 >"$TMP/dense.xml"
expect 4 "remat-plan: the MILP would have at least 2001000 rows and 97215677 nonzeros, more than it is built for (7000000 nonzeros, about 2 GiB)" \
	--graph "$TMP/dense.xml" --budget 50% --write-mps "$TMP/out.xml"
rm -f "$TMP/dense.xml"
# A graph of more nodes than the model is built for is refused for that,
# before its size is counted.
"$(dirname "$RP")/tools/gengraph" linear 1001 >"$TMP/long.xml"
expect 4 "remat-plan: the graph has 2003 nodes, more than the MILP is built for (2000: its stages times nodes grow as n^2)" \
	--graph "$TMP/long.xml" --budget 50% --write-mps "$TMP/out.xml"
rm -f "$TMP/long.xml"
if [ -w /dev/full ]; then
	expect 4 "remat-plan: cannot write '/dev/full': No space left on device" \
		--graph $L --budget 60% --write-lp /dev/full
	for opt in --help --version; do
		"$RP" $opt >/dev/full 2>"$TMP/stderr"
		rc=$?
		[ $rc = 4 ] && [ "$(cat "$TMP/stderr")" = "remat-plan: cannot write to standard output: No space left on device" ] &&
		    pass "$opt onto a full device: status 4, said so" ||
		    fail "$opt onto a full device: status $rc, $(cat "$TMP/stderr")"
	done
fi
# A pipe is written once, as it is: a FIFO (opened once, so that its
# reader does not see the end of the file before the plan), and a link
# to a pipe with no name to resolve (/proc/self/fd/N; not the pipe of
# standard output, above).
if mkfifo "$TMP/fifo"; then
	cat "$TMP/fifo" >"$TMP/fromfifo" &
	reader=$!
	timeout 30 "$RP" --graph $L --budget 60% -s dtr -o "$TMP/fifo" >/dev/null \
	    2>"$TMP/stderr"
	rc=$?
	wait $reader
	if [ $rc = 0 ] && grep -q '^<plan ' "$TMP/fromfifo" &&
	    grep -q '^</plan>' "$TMP/fromfifo"; then
		pass "a plan written to a FIFO reaches its reader whole"
	else
		fail "a plan written to a FIFO: status $rc, $(cat "$TMP/stderr"), $(wc -c <"$TMP/fromfifo") bytes read"
	fi
	rm -f "$TMP/fifo" "$TMP/fromfifo"
fi
if [ -e /proc/self/fd/1 ]; then
	{ "$RP" --graph $L --budget 60% -s dtr -o /proc/self/fd/3 3>&1 \
	    >/dev/null 2>"$TMP/stderr"; } | cat >"$TMP/piped"
	if grep -q '^</plan>' "$TMP/piped" && [ ! -s "$TMP/stderr" ]; then
		pass "a plan written through a link to a pipe (/proc/self/fd/3)"
	else
		fail "a plan written through a link to a pipe: $(cat "$TMP/stderr")"
	fi
	rm -f "$TMP/piped"
fi

# A graph without a name takes its file's, made fit for XML and JSON: a
# byte that is not UTF-8 becomes '?' (it made a plan that remat-plan
# could not read back, and JSON that was not JSON).
bad=$(printf '%s/bad\377.xml' "$TMP")
grep -v 'key="name">' ../../graphs/linear-8.xml >"$bad"
if "$RP" --graph "$bad" --budget 60% -s dtr -o "$TMP/bad-plan.xml" \
    >/dev/null 2>&1 &&
    "$RP" --graph "$bad" --check "$TMP/bad-plan.xml" >/dev/null 2>&1 &&
    grep -q 'graph="bad?"' "$TMP/bad-plan.xml" &&
    "$RP" --graph "$bad" --check "$TMP/bad-plan.xml" -f json |
    "$PY3" -c 'import json, sys; json.load(sys.stdin)'; then
	pass "a graph named after a file name that is not UTF-8: its plan" \
	    "reads back, its JSON is JSON"
else
	fail "a graph named after a file name that is not UTF-8"
fi
rm -f "$bad" "$TMP/bad-plan.xml"

# Out of memory is said to be that: status 4, never a complaint about the
# file. (Skipped where the binary cannot start under the limit, as with
# AddressSanitizer.)
if (ulimit -v 100000; "$RP" --version) >/dev/null 2>&1; then
	"$(dirname "$RP")/tools/gengraph" random 10000 200000 3 >"$TMP/big.xml"
	(ulimit -v 100000; "$RP" --graph "$TMP/big.xml" --budget 50% -t 5 \
	    >/dev/null 2>"$TMP/stderr"; echo $? >"$TMP/rc")
	[ "$(cat "$TMP/rc")" = 4 ] && [ "$(cat "$TMP/stderr")" = "remat-plan: out of memory" ] &&
	    pass "out of memory: status 4, said so" ||
	    fail "out of memory: status $(cat "$TMP/rc"), $(cat "$TMP/stderr")"
	rm -f "$TMP/big.xml" "$TMP/rc"
fi

# On a terminal, without -v, one line says which strategy runs, and is
# cleared; not on a pipe. (script(1) gives the run a terminal.)
if command -v script >/dev/null 2>&1; then
	script -qec "'$RP' --graph $L --budget 60% -f csv >/dev/null" /dev/null \
	    >"$TMP/tty" 2>&1
	n=$(strategies | wc -l)
	if grep -q "running ilp ($n of $n)" "$TMP/tty" &&
	    [ "$(tail -c 4 "$TMP/tty" | od -An -c | tr -d ' ')" = '\r033[K' ]; then
		pass "progress on a terminal, cleared at the end"
	else
		fail "progress on a terminal: $(od -c "$TMP/tty" | tail -3)"
	fi
	"$RP" --graph $L --budget 60% -f csv >/dev/null 2>"$TMP/stderr"
	[ -s "$TMP/stderr" ] && fail "progress on a pipe: $(cat "$TMP/stderr")" ||
	    pass "no progress line when standard error is not a terminal"
	rm -f "$TMP/tty"
fi

# A report that cannot be written: status 4.
if [ -w /dev/full ]; then
	"$RP" --graph $L --budget 60% >/dev/full 2>"$TMP/stderr"
	rc=$?
	[ "$rc" -eq 4 ] && grep -q "^remat-plan: cannot write to standard output: No space left on device$" "$TMP/stderr" &&
	    pass "writing the report to /dev/full: status 4" || fail "writing the report to /dev/full: exit $rc, $(cat "$TMP/stderr")"
fi

# Usage errors: status 2.
expect 2 "remat-plan: --graph FILE is required
$TRY"
# Output files: named, '-' for the plan alone, the model's two apart;
# refused before any planning.
expect 2 "remat-plan: --output needs a file name, not an empty one
$TRY" --graph $L --budget 60% -o ''
expect 2 "remat-plan: --write-lp needs a file name, not an empty one
$TRY" --graph $L --budget 60% --write-lp ''
expect 2 "remat-plan: --plot needs a file name, not an empty one
$TRY" --graph $L --sweep 50%:60%:10% --plot ''
expect 2 "remat-plan: --write-mps writes a file: '-' (standard output) is for --output
$TRY" --graph $L --budget 60% --write-mps -
expect 2 "remat-plan: --plot writes a file: '-' (standard output) is for --output
$TRY" --graph $L --sweep 50%:60%:10% --plot -
expect 2 "remat-plan: cannot write '$TMP/../$(basename "$TMP")/m': --write-mps and --write-lp name the same file
$TRY" --graph $L --budget 60% --write-mps "$TMP/m" --write-lp "$TMP/../$(basename "$TMP")/m"
# --budget min where the checkpoint-all peak is 0 bytes: nothing to search
# (it searched budget 0 without end).
printf '%s\n' '<?xml version="1.0"?>' \
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">' \
    '<key id="c" for="node" attr.name="cost" attr.type="double"/>' \
    '<key id="m" for="node" attr.name="mem" attr.type="long"/>' \
    '<graph edgedefault="directed"><node id="a"><data key="c">1</data>' \
    '<data key="m">0</data></node></graph></graphml>' >"$TMP/zero.xml"
timeout 60 "$RP" --graph "$TMP/zero.xml" --budget min -t 1 >"$TMP/stdout" \
    2>"$TMP/stderr"
rc=$?
if [ $rc = 2 ] && [ ! -s "$TMP/stdout" ] && [ "$(cat "$TMP/stderr")" = "remat-plan: --budget min: the checkpoint-all peak is 0 bytes, so there is no budget to search
$TRY" ]; then
	pass "--budget min on a graph of 0 bytes: a usage error"
else
	fail "--budget min on a graph of 0 bytes: status $rc, $(cat "$TMP/stderr")"
fi
rm -f "$TMP/zero.xml"
expect 2 "remat-plan: --budget is required (for example --budget 16G or --budget 60%)
$TRY" --graph $L
expect 2 "remat-plan: budget 'lots' is not a number of bytes or a percentage
$TRY" --graph $L --budget lots
expect 2 "remat-plan: budget '-1G' is not a number of bytes or a percentage
$TRY" --graph $L --budget -1G
expect 2 "remat-plan: budget '0x10' is not a number of bytes or a percentage
$TRY" --graph $L --budget 0x10
expect 2 "remat-plan: budget '16Q' has an unknown unit 'Q' (use B, K, M, G, T, KiB, MiB, GiB, TiB, KB, MB, GB, TB or %)
$TRY" --graph $L --budget 16Q
expect 2 "remat-plan: budget '0' must be at least 1 byte
$TRY" --graph $L --budget 0
expect 2 "remat-plan: budget '0%' must be a percentage above 0%
$TRY" --graph $L --budget 0%
expect 2 "remat-plan: budget '999999999T' is too large
$TRY" --graph $L --budget 999999999T
expect 2 "remat-plan: budget 1% of the checkpoint-all peak (10 bytes) is less than one byte" \
	--graph $L --budget 1%
expect 2 "remat-plan: unknown strategy 'dtr9' (available: $(strategies | paste -sd, - | sed 's/,/, /g'))" \
	--graph $L --budget 1G --strategy chen-sqrtn,dtr9
expect 2 "remat-plan: --strategy ',' has an empty item" --graph $L --budget 1G --strategy ,
expect 2 "remat-plan: --strategy 'dtr,,lookahead' has an empty item" --graph $L --budget 1G --strategy dtr,,lookahead
expect 2 "remat-plan: unknown format 'xml' (use table, csv or json)
$TRY" --graph $L --budget 1G --format xml
expect 2 "remat-plan: time limit 'soon' is not a positive number of seconds
$TRY" --graph $L --budget 1G --time-limit soon
expect 2 "remat-plan: time limit '-3' is not a positive number of seconds
$TRY" --graph $L --budget 1G -t -3
expect 2 "remat-plan: unknown DTR heuristic 'belady' (use dtr, dtr-eqclass, dtr-local, lru, largest, msps or random)
$TRY" --graph $L --budget 1G --dtr-heuristic belady
expect 2 "remat-plan: thrashing limit '0.5' is not 0 or a number of times the baseline cost of at least 1
$TRY" --graph $L --budget 1G --dtr-thrash 0.5
expect 2 "remat-plan: seed '-4' is not a non-negative integer
$TRY" --graph $L --budget 1G --seed -4
expect 2 "remat-plan: MIP gap '2' is not a fraction in [0, 1) or a percentage below 100%
$TRY" --graph $L --budget 1G --mip-gap 2
expect 2 "remat-plan: MIP gap 'small' is not a fraction in [0, 1) or a percentage below 100%
$TRY" --graph $L --budget 1G --mip-gap small
# Numbers in options are decimal too: strtod() took 0x2 as 2.
expect 2 "remat-plan: time limit '0x2' is not a positive number of seconds
$TRY" --graph $L --budget 1G -t 0x2
expect 2 "remat-plan: thrashing limit '0X2' is not 0 or a number of times the baseline cost of at least 1
$TRY" --graph $L --budget 1G --dtr-thrash 0X2
expect 2 "remat-plan: MIP gap '0x0.1' is not a fraction in [0, 1) or a percentage below 100%
$TRY" --graph $L --budget 1G --mip-gap 0x0.1
expect 2 "remat-plan: --sweep '50%:90%:0x0': budget '0x0' is not a number of bytes or a percentage
$TRY" --graph $L --sweep 50%:90%:0x0
expect 2 "remat-plan: unknown solver 'gurobi' (glpk or cbc)
$TRY" --graph $L --budget 1G --solver gurobi
expect 2 "remat-plan: thread count '0' is not a number from 1 to 256
$TRY" --graph $L --budget 1G --threads 0
expect 2 "remat-plan: thread count 'two' is not a number from 1 to 256
$TRY" --graph $L --budget 1G --threads two
expect 2 "remat-plan: --write-mps, --write-lp and --read-solution cannot be combined with --check, --info or --strategy
$TRY" --graph $L --budget 1G --write-mps "$TMP/m.mps" --strategy ilp
expect 2 "remat-plan: --read-solution cannot be combined with --write-mps or --write-lp
$TRY" --graph $L --budget 1G --read-solution x.sol --write-lp "$TMP/m.lp"
expect 2 "remat-plan: --write-mps and --write-lp write the model, not a plan: drop --output
$TRY" --graph $L --budget 1G --write-mps "$TMP/m.mps" -o "$TMP/out.xml"
expect 2 "remat-plan: unexpected argument 'extra'
$TRY" --graph $L --budget 1G extra
expect 2 "remat-plan: unknown option '--bogus'
$TRY" --bogus
expect 2 "remat-plan: option '--info' takes no value
$TRY" --graph $L --info=3
expect 2 "remat-plan: unknown option '-x'
$TRY" -x
expect 2 "remat-plan: option '--graph' needs an argument
$TRY" --graph
expect 2 "remat-plan: --check cannot be combined with --output, --strategy or --info
$TRY" --graph $L --check plans/never.xml -o "$TMP/out.xml"
expect 2 "remat-plan: --info cannot be combined with --budget, --output or --strategy
$TRY" --graph $L --info --strategy chen-sqrtn
expect 2 "remat-plan: --info cannot be combined with --budget, --output or --strategy
$TRY" --graph $L --info --budget 50%

finish

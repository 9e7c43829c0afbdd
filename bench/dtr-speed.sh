#!/bin/sh
# DTR simulation speed vs graph size: random training graphs (gengraph
# training, half forward, half gradient nodes) of 1k to 16k nodes at 50% of
# the checkpoint-all peak, for dtr-eqclass, exact dtr and lru side by side
# in one run; planning time as remat-plan measures it (best of 3).
. "$(dirname "$0")/common.sh"

best() {	# graph heuristic -> "seconds overhead"
	for i in 1 2 3; do
		"$rp" --graph "$1" --budget 50% --strategy dtr --dtr-heuristic "$2" \
		    -f csv 2>/dev/null | sed -n 2p | awk -F, '{ print $8, $4 }'
	done | sort -g | head -1
}

printf '%7s %7s | %-20s | %-20s | %-20s\n' nodes edges "dtr-eqclass s (ovh)" "dtr s (ovh)" "lru s (ovh)"
for n in 1000 2000 4000 8000 16000; do
	g=$tmp/t$n.xml
	"$gen" training $((n / 2)) 5 >"$g"
	m=$("$rp" --graph "$g" --info -f csv | sed -n 2p | cut -d, -f3)
	set -- $(best "$g" dtr-eqclass) $(best "$g" dtr) $(best "$g" lru)
	printf '%7d %7d | %8.3f s (%.3fx)   | %8.3f s (%.3fx)   | %8.3f s (%.3fx)\n' \
	    "$n" "$m" "$1" "$2" "$3" "$4" "$5" "$6"
done

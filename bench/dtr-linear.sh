#!/bin/sh
# The DTR paper's theorem 3.1 setting: Checkmate's linear graph with n
# layers (2n+1 nodes), unit cost and memory, budget ceil(2 sqrt n) plus the
# 3 units a gradient node needs; and budget ceil(log2 n) + 3. Prints the
# extra computations of exact dtr (eager eviction and banishing) and lru,
# divided by n (sqrt budget) and by n log2 n (log budget).
. "$(dirname "$0")/common.sh"

extra() {	# graph n budget args... -> extra computations
	g=$1 n=$2 b=$3
	shift 3
	c=$("$rp" --graph "$g" --budget "$b" --strategy dtr --dtr-thrash 0 "$@" \
	    -f csv 2>/dev/null | sed -n 2p | cut -d, -f2,3)
	case $c in
	fits,*) echo "${c#fits,} $n" | awk '{ print $1 - (2 * $2 + 1) }' ;;
	*) echo NA ;;
	esac
}

printf '%6s | %5s %9s %9s %9s | %5s %9s %9s\n' n "B" "dtr/n" "banish/n" "lru/n" \
    "B" "dtr/nlgn" "lru/nlgn"
for n in 64 128 256 512 1024 2048 4096 8192; do
	g=$tmp/lin$n.xml
	"$gen" linear $n >"$g"
	bs=$(awk -v n=$n 'BEGIN { b = 2 * sqrt(n); print (b == int(b) ? b : int(b) + 1) + 3 }')
	bl=$(awk -v n=$n 'BEGIN { b = log(n) / log(2); print (b == int(b) ? b : int(b) + 1) + 3 }')
	e1=$(extra "$g" $n $bs)
	e2=$(extra "$g" $n $bs --dtr-banish)
	e3=$(extra "$g" $n $bs --dtr-heuristic lru)
	e4=$(extra "$g" $n $bl)
	e5=$(extra "$g" $n $bl --dtr-heuristic lru)
	echo "$n $bs $e1 $e2 $e3 $bl $e4 $e5" | awk '{
	    lg = log($1) / log(2)
	    printf "%6d | %5d %9.3f %9.3f %9.3f | %5d %9.3f %9.3f\n",
	        $1, $2, $3 / $1, $4 / $1, $5 / $1, $6, $7 / ($1 * lg), $8 / ($1 * lg) }'
done

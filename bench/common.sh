# common.sh: the prologue of the benchmark scripts, sourced by each: strict
# mode, the top of the tree in $top, remat-plan in $rp and the graph
# generator in $gen (RP and GEN override them), and a temporary directory
# $tmp removed on exit.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rp=${RP:-$top/remat-plan}
gen=${GEN:-$top/tools/gengraph}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

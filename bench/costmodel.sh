#!/bin/sh
# Profiled costs against the roofline cost model, on models this machine
# can run: each is exported twice, profiled here (remat-export, best of 3)
# and shapes-only with --cost-model roofline:h100.  The graphs must be the
# same but for the costs.  The table gives the Spearman rank correlation of
# the node costs, and how the two plans compare: each graph is planned at
# PCT% (default 70, every strategy, -t 5), and both plans are costed on the
# profiled graph (remat-plan --check), so "roofline plan / profile plan" is
# what planning with the model instead of a profile costs on this machine.
# Usage: bench/costmodel.sh [PCT [MODEL:BATCH:SIZE ...]]
. "$(dirname "$0")/common.sh"
py=/usr/bin/python3
pct=${1:-70}
[ $# -gt 0 ] && shift
models=${*:-"resnet18:16:112 mobilenet_v2:8:64 smallunet:4:96 gpt:16:128"}
echo "| model | nodes | same graph | Spearman | profile plan | roofline plan | roofline plan / profile plan |"
echo "|---|---:|---|---:|---:|---:|---:|"
for m in $models; do
	IFS=: read -r name batch size <<END
$m
END
	"$py" "$top/tools/remat-export" --model "$name" --batch "$batch" --size "$size" \
	    --repeat 3 -o "$tmp/p.xml" 2>/dev/null
	"$py" "$top/tools/remat-export" --model "$name" --batch "$batch" --size "$size" \
	    --shapes-only --cost-model roofline:h100 -o "$tmp/r.xml" 2>/dev/null
	mask() { sed -e 's|<data key="cost">[^<]*</data>||' -e '/key="costmodel"/d' "$1"; }
	mask "$tmp/p.xml" >"$tmp/pm"
	mask "$tmp/r.xml" >"$tmp/rm"
	cmp -s "$tmp/pm" "$tmp/rm" && same=yes || same=NO
	"$rp" --graph "$tmp/p.xml" --budget "$pct%" -t 5 -o "$tmp/pp.xml" >/dev/null 2>&1 || true
	"$rp" --graph "$tmp/r.xml" --budget "$pct%" -t 5 -o "$tmp/rp.xml" >/dev/null 2>&1 || true
	cost() { [ -s "$1" ] && "$rp" --graph "$tmp/p.xml" --check "$1" -f csv |
	    awk -F, 'NR == 2 { print $4 }' || echo -; }
	pc=$(cost "$tmp/pp.xml")
	rc=$(cost "$tmp/rp.xml")
	TOP=$top "$py" - "$tmp/p.xml" "$tmp/r.xml" "$name-b$batch-s$size" "$same" "$pc" "$rc" <<'PY'
import sys
import os
sys.path.insert(0, os.environ['TOP'] + '/python')
from remat_torch.graphio import GraphFile
p, r = GraphFile(sys.argv[1]), GraphFile(sys.argv[2])
nodes = sorted(p.nodes)
def ranks(c):
    order = sorted(nodes, key=lambda v: c[v])
    rank, i = {}, 0
    while i < len(order):           # ties share their mean rank
        j = i
        while j + 1 < len(order) and c[order[j + 1]] == c[order[i]]:
            j += 1
        for k in range(i, j + 1):
            rank[order[k]] = (i + j) / 2
        i = j + 1
    return rank
a, b = ranks(p.cost), ranks(r.cost)
n = len(nodes)
ma, mb = sum(a.values()) / n, sum(b.values()) / n
cov = sum((a[v] - ma) * (b[v] - mb) for v in nodes)
rho = cov / (sum((a[v] - ma) ** 2 for v in nodes) * sum((b[v] - mb) ** 2 for v in nodes)) ** 0.5
pc, rc = sys.argv[5], sys.argv[6]
ratio = '%.3f' % (float(rc) / float(pc)) if pc not in ('', '-') and rc not in ('', '-') else '-'
print('| %s | %d | %s | %.2f | %s | %s | %s |' % (sys.argv[3], n, sys.argv[4], rho,
      pc or '-', rc or '-', ratio))
PY
done

#!/usr/bin/env python3
"""Where a plan's recomputations go: python3 bench/cascades.py GRAPH PLAN.

Replays the plan (remat-plan(5)) over the graph and sorts each computation
of a node that was computed before (a recomputation) by who reads that
copy while it is held: a first computation of some node ("direct": the
copy is there for the program itself), or recomputations only ("cascade":
the copy is there to recompute another value whose inputs were freed).
Prints their counts and costs over the baseline.  Standard library only.
"""

import sys
import xml.etree.ElementTree as ET

NS = '{http://graphml.graphdrawing.org/xmlns}'


def read_graph(path):
    """(cost, preds) of each node id, from the GraphML file at path."""
    root = ET.parse(path).getroot()
    names, default = {}, None
    for k in root.iter(NS + 'key'):
        names[k.get('id')] = k.get('attr.name')
        if k.get('for') == 'node' and k.get('attr.name') == 'cost':
            default = k.findtext(NS + 'default')
    cost, preds = {}, {}
    graph = root.find(NS + 'graph')
    for node in graph.iter(NS + 'node'):
        data = {names.get(d.get('key')): d.text for d in node.iter(NS + 'data')}
        cost[node.get('id')] = float(data.get('cost') or default or 0)
        preds[node.get('id')] = []
    for edge in graph.iter(NS + 'edge'):
        preds[edge.get('target')].append(edge.get('source'))
    return cost, preds


def main(graph_path, plan_path):
    cost, preds = read_graph(graph_path)
    baseline = sum(cost.values())
    held = {}           # node -> index of its latest copy held now
    in_reg = {}         # register -> index of the copy it holds
    copies = []         # (node, is a recomputation)
    readers = []        # per copy: [reader is a recomputation, ...]
    done = set()
    plan = ET.parse(plan_path).getroot()
    if plan.tag != 'plan':
        raise ValueError('%s is not a plan (remat-plan(5))' % plan_path)
    for st in plan:
        if st.tag == 'compute':
            v = st.get('node')
            again = v in done
            for p in preds[v]:
                if p in held:
                    readers[held[p]].append(again)
            copies.append((v, again))
            readers.append([])
            held[v] = in_reg[st.get('reg')] = len(copies) - 1
            done.add(v)
        elif st.tag == 'free':
            i = in_reg.pop(st.get('reg'), None)
            if i is not None and held.get(copies[i][0]) == i:
                del held[copies[i][0]]
    kinds = {'direct': [0, 0.0], 'cascade': [0, 0.0], 'unread': [0, 0.0]}
    for (v, again), r in zip(copies, readers):
        if not again:
            continue
        kind = 'unread' if not r else 'cascade' if all(r) else 'direct'
        kinds[kind][0] += 1
        kinds[kind][1] += cost[v]
    total = sum(c for c, _ in kinds.values())
    extra = sum(x for _, x in kinds.values())
    print('%s: %d recomputations, %.3f of the baseline cost'
          % (plan_path, total, extra / baseline if baseline else 0))
    for kind, (count, c) in kinds.items():
        print('  %-8s %5d  %.3f' % (kind, count, c / baseline if baseline else 0))


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit('usage: python3 bench/cascades.py GRAPH PLAN')
    try:
        main(sys.argv[1], sys.argv[2])
    except (OSError, ET.ParseError, KeyError, ValueError) as e:
        # remat-plan --check says more about a file that is not right
        sys.exit('cascades.py: %s: %s' % (type(e).__name__, e))

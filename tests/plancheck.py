#!/usr/bin/env python3
"""Independent plan checker for the tests: the memory model of remat-plan(5)
written a second time, in another language, sharing no code with the C
simulator. Usage: plancheck.py GRAPH PLAN BUDGET_BYTES
Prints "cost peak" and exits 0 for a valid plan within budget; prints the
reason and exits 1 otherwise.
       plancheck.py --batch LIST
LIST has one check per line, GRAPH PLAN BUDGET_BYTES separated by tabs;
prints each one's outcome ("cost peak" or the reason) on a line of its own,
in order, reading each graph once; exits 0."""
import sys
import xml.etree.ElementTree as ET
from decimal import Decimal

NS = '{http://graphml.graphdrawing.org/xmlns}'


def local(tag):
    return tag.rsplit('}', 1)[-1]


def nbytes(text):
    """A byte count, exactly: an integer, or an integral number written
    as a double ("1048576.0", "1e3"), without rounding through a float."""
    return int(Decimal(text))


def load_graph(path):
    root = ET.parse(path).getroot()
    keys = {}
    for k in root:
        if local(k.tag) == 'key':
            default = None
            for d in k:
                if local(d.tag) == 'default':
                    default = (d.text or '').strip()
            keys[k.get('id')] = (k.get('for', 'all'), k.get('attr.name'), default)
    graph = [g for g in root if local(g.tag) == 'graph'][0]
    fixed = 0
    nodes = {}
    preds = {}
    for el in graph:
        tag = local(el.tag)
        if tag == 'data':
            f, name, _ = keys[el.get('key')]
            if f in ('graph', 'all') and name == 'fixed_mem':
                fixed = nbytes(el.text.strip())
        elif tag == 'node':
            attrs = {}
            for kid, (f, name, default) in keys.items():
                if f in ('node', 'all') and default is not None:
                    attrs[name] = default
            for d in el:
                if local(d.tag) == 'data':
                    f, name, _ = keys[d.get('key')]
                    if f in ('node', 'all'):
                        attrs[name] = (d.text or '').strip()
            nodes[el.get('id')] = {
                'cost': float(attrs['cost']),
                'mem': nbytes(attrs['mem']),
                'ws': nbytes(attrs.get('workspace', '0')),
                'recompute': attrs.get('recompute', 'true').lower() not in ('false', '0'),
                'output': attrs.get('output', 'false').lower() in ('true', '1'),
            }
            preds.setdefault(el.get('id'), set())
    for el in graph:
        if local(el.tag) == 'edge':
            preds.setdefault(el.get('target'), set()).add(el.get('source'))
    return fixed, nodes, preds


def check(graph_path, plan_path, budget, graphs=None):
    if graphs is None:
        graphs = {}
    if graph_path not in graphs:
        graphs[graph_path] = load_graph(graph_path)
    fixed, nodes, preds = graphs[graph_path]
    live = {}          # register -> node
    copies = {}        # node -> number of live registers holding it
    computed = {}
    mem = fixed
    peak = fixed
    cost = 0.0
    for el in ET.parse(plan_path).getroot().iter():
        tag = local(el.tag)
        if tag == 'compute':
            v, r = el.get('node'), el.get('reg')
            if v not in nodes:
                return 'unknown node %r' % v
            if r in live:
                return 'register %r is still live' % r
            for p in preds[v]:
                if copies.get(p, 0) == 0:
                    return '%r reads %r, which is not live' % (v, p)
            if computed.get(v) and not nodes[v]['recompute']:
                return '%r recomputed but recompute=false' % v
            peak = max(peak, mem + nodes[v]['mem'] + nodes[v]['ws'])
            cost += nodes[v]['cost']
            computed[v] = True
            mem += nodes[v]['mem']
            live[r] = v
            copies[v] = copies.get(v, 0) + 1
        elif tag == 'free':
            r = el.get('reg')
            if r not in live:
                return 'free of register %r, which is not live' % r
            v = live.pop(r)
            copies[v] -= 1
            mem -= nodes[v]['mem']
    for v, a in nodes.items():
        if not computed.get(v):
            return '%r is never computed' % v
        if a['output'] and copies.get(v, 0) == 0:
            return 'output %r is not live at the end' % v
    if peak > budget:
        return 'peak %d exceeds the budget %d' % (peak, budget)
    return (cost, peak)


def outcome(res):
    return res if isinstance(res, str) else '%.10g %d' % res


def batch(list_path):
    graphs = {}
    with open(list_path) as f:
        for line in f:
            g, plan, budget = line.rstrip('\n').split('\t')[:3]
            try:
                res = outcome(check(g, plan, int(budget), graphs))
            except Exception as e:  # a plan that does not parse, say
                res = 'error: %s' % e
            print(res.replace('\n', ' '))


if __name__ == '__main__':
    if len(sys.argv) == 3 and sys.argv[1] == '--batch':
        batch(sys.argv[2])
        sys.exit(0)
    res = check(sys.argv[1], sys.argv[2], int(sys.argv[3]))
    if isinstance(res, str):
        print(res)
        sys.exit(1)
    print('%.10g %d' % res)

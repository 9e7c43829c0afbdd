"""Coarsening: merging the operator nodes of each layer into one node, for
graphs small enough for the MILP (--coarsen DEPTH)."""


def coarsen(graph, depth):
    """Merges the operator nodes of each layer (see _labels) into one
    node.  Runs of consecutive nodes (in the topological order) with the
    same layer are merged, which keeps the graph acyclic; a node that cannot
    be recomputed or holds a result read by other nodes stays on its own
    (merged, it would make the whole layer unrecomputable or resident to the
    end), and the results nobody reads (gradients, statistics updates) of a
    layer are merged into one node of their own.  Inside a merged node every
    value an operator produces lives until the node ends; values not read
    outside it are its workspace."""
    label = _labels(graph, depth)
    users = {g: 0 for g in graph.nodes}
    for g in graph.nodes:
        for p in g.preds:
            users[p] += 1
    parts, sinks, run, run_label = [], {}, None, None
    for g in graph.nodes:
        if g.output and not users[g]:
            sinks.setdefault(label[g], []).append(g)
        elif g.output or not g.recompute:
            parts.append([g])
            run = None
        elif run is not None and label[g] == run_label:
            run.append(g)
        else:
            run, run_label = [g], label[g]
            parts.append(run)
    parts += sinks.values()
    home_of = {}
    for part in parts:
        for g in part:
            home_of[g] = part[0]
    graph.groups = {}
    for part in parts:
        home = part[0]
        preds = {home_of[p] for g in part for p in g.preds} - {home}
        for g in part[1:]:
            for m in g.members:
                graph.group[m] = home
            home.members += g.members
            home.rng_states.update(g.rng_states)
            home.hidden_writes.update(g.hidden_writes)
            home.updates_input = home.updates_input or g.updates_input
            home.position = min(home.position, g.position)
        home.members.sort(key=graph.position.get)
        home.preds = preds
        graph.groups[home] = None
    graph.settle()


def _labels(graph, depth):
    """The layer of each node: the module path, cut to depth components,
    of the module that ran its first operator ('f:' prefix); for an
    operator traced outside any module (the backward pass, the loss) the
    module whose parameter it reads, else the layer of the latest forward
    node it reads, else that of its latest predecessor ('b:')."""
    def cut(path):
        return '.'.join(path.split('.')[:depth])
    n_params = len(graph.problem.params)
    param_layer = {ph: cut(name.rpartition('.')[0]) for ph, name
                   in zip(graph.placeholders[:n_params], graph.problem.param_names)}
    label = {}
    for g in graph.nodes:
        mods = [m.meta['remat_module'] for m in g.members if 'remat_module' in m.meta]
        if mods:
            label[g] = 'f:' + cut(mods[0])
            continue
        if g.forward:            # the loss
            label[g] = 'f:'
            continue
        params = [param_layer[ph] for m in g.members
                  for ph in _placeholders_read(graph, m) if ph in param_layer]
        forward = [p for p in g.preds if p.forward]
        if params:
            label[g] = 'b:' + params[0]
        elif forward:
            label[g] = 'b:' + label[max(forward, key=lambda p: p.position)][2:]
        elif g.preds:
            label[g] = 'b:' + label[max(g.preds, key=lambda p: p.position)][2:]
        else:
            label[g] = 'b:'
    return label


def _placeholders_read(graph, n):
    """The graph inputs fx node n reads, directly or through views."""
    found = []
    for a in n.all_input_nodes:
        if graph.kind[a] == 'input':
            found.append(a)
        elif graph.kind[a] == 'view':
            found += _placeholders_read(graph, a)
    return found

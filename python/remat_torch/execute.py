"""Running the graph: one node at a time from the values other nodes hold
(what profiling and plans need), a whole plan with the live bytes it holds
measured, and the checks of its results.

A plan's registers hold, for each node computed into them, the values the
node's OpNode.held says; a node reads the other nodes' values through
fetch(OpNode) -> {member: value}, rebuilds views from them and takes graph
inputs from inputs ({placeholder: value})."""

import time

import torch

from .device import set_rng, synchronize
from .errors import UserError
from .graph import written_nodes
from .storage import storages


def value_of(graph, n, fetch, inputs):
    """The value of fx node n, from graph inputs and held values."""
    kind = graph.kind[n]
    if kind == 'input':
        return inputs[n]
    if kind == 'owner':
        return fetch(graph.group[n])[n]
    if kind == 'fused':     # an in-place operator returns what it wrote
        return value_of(graph, written_nodes(n)[0], fetch, inputs)
    args, kwargs = _arguments(graph, n, fetch, inputs)
    return n.target(*args, **kwargs)


def _arguments(graph, n, fetch, inputs, scratch=()):
    """The arguments of fx node n; those in scratch are given as copies."""
    def value(a):
        v = value_of(graph, a, fetch, inputs)
        return v.clone() if a in scratch else v
    return (torch.fx.node.map_arg(n.args, value),
            torch.fx.node.map_arg(n.kwargs, value))


def compute(graph, group, fetch, inputs, again, exclude=None):
    """Runs a node's operators in order, dropping each value as soon as
    no later operator of the node reads it unless the register keeps it.
    Returns ({member: value} of the kept values, peak): with exclude (the
    storage keys counted elsewhere: graph inputs, live registers), peak
    is the largest number of bytes of other storages the node's values
    held at once, else 0.  again: it ran before, so graph inputs it
    writes get scratch copies."""
    values = {}
    peak = 0

    def fetch_here(g):
        return values if g is group else fetch(g)
    for i, m in enumerate(group.members):
        if m in group.rng_states:
            set_rng(graph.device, group.rng_states[m])
        args, kwargs = _arguments(graph, m, fetch_here, inputs, group.scratch(m, again))
        values[m] = m.target(*args, **kwargs)
        del args, kwargs
        if exclude is not None:
            peak = max(peak, sum(b for k, b in storages(list(values.values())).items()
                                 if k not in exclude))
        for d in group.drop_after.get(i, ()):
            del values[d]
    return values, peak


def results(graph, fetch, inputs):
    """The step's results: [loss, *grads]."""
    return [value_of(graph, r, fetch, inputs) if isinstance(r, torch.fx.Node) else r
            for r in graph.returns]


def compute_target(graph, node, reg, live, computed):
    """The OpNode a plan's 'compute node into reg' statement computes,
    given the live registers and the nodes computed so far; an invalid
    statement is a UserError."""
    g = graph.by_name.get(node)
    if g is None:
        raise UserError('plan computes %r, which is not a node of the graph' % node)
    if reg in live:
        raise UserError('plan computes %s into register %r, which is still live'
                        % (node, reg))
    if g in computed and not g.recompute:
        raise UserError('plan computes %s (recompute=false) twice' % node)
    return g


def check_plan_end(graph, computed, holders):
    """What a plan must have done by its end (remat-plan(5)): computed
    every node at least once, and kept every output in a live register;
    else a UserError."""
    for g in graph.nodes:
        if g not in computed:
            raise UserError('node \'%s\' is never computed' % g.name)
    for g in graph.nodes:
        if g.output and not holders.get(g):
            raise UserError('output node \'%s\' is not live at the end of the '
                            'plan' % g.name)


def run_plan(graph, plan, measure):
    """Interprets the plan (graphio.Plan).  Returns (results [loss, *grads],
    graph inputs after the step, measured peak or None, seconds)."""
    inputs = graph.run_inputs()
    inputs.update(graph.constant_values())
    fixed = storages(list(inputs.values()))
    regs = {}           # register -> (OpNode, held value)
    holders = {}        # OpNode -> its live registers
    refs = {}           # storage key -> live registers holding it
    sizes = {}
    live_bytes = 0
    peak = sum(fixed.values())
    computed = set()
    current = [None]

    def fetch(g):
        if not holders.get(g):
            raise UserError('plan: %s reads %s, which is not in a live register'
                            % (current[0] or 'the end of the plan', g.name))
        return regs[holders[g][-1]][1]

    synchronize(graph.device)
    start = time.perf_counter()
    with torch.no_grad():
        for i, (what, node, reg) in enumerate(plan.statements):
            if what == 'free':
                if reg not in regs:
                    raise plan.error_at(i, 'plan frees register %r, which is not live'
                                        % reg)
                g, value = regs.pop(reg)
                holders[g].remove(reg)
                if measure:
                    for key in storages(value):
                        if key not in fixed:
                            refs[key] -= 1
                            if refs[key] == 0:
                                live_bytes -= sizes.pop(key)
                                del refs[key]
                del value
                continue
            try:
                g = compute_target(graph, node, reg, regs, computed)
                current[0] = node
                value, inner = compute(graph, g, fetch, inputs, again=g in computed,
                                       exclude=(fixed.keys() | refs.keys()) if measure
                                       else None)
            except UserError as e:
                raise plan.error_at(i, e)
            computed.add(g)
            if measure:
                peak = max(peak, sum(fixed.values()) + live_bytes + inner)
            value = g.held_values(value)
            regs[reg] = (g, value)
            holders.setdefault(g, []).append(reg)
            if measure:
                for key, nbytes in storages(value).items():
                    if key not in fixed:
                        if key not in refs:
                            refs[key] = 0
                            sizes[key] = nbytes
                            live_bytes += nbytes
                        refs[key] += 1
            del value
        current[0] = None
        try:
            check_plan_end(graph, computed, holders)
            step_results = results(graph, fetch, inputs)
        except UserError as e:
            raise plan.error(e)
    synchronize(graph.device)
    seconds = time.perf_counter() - start
    return step_results, inputs, (peak if measure else None), seconds


def check_match(graph, file):
    """The re-traced step must be the graph in the file (graphio.GraphFile);
    the message gives the line where the file differs, if there is one."""
    step = graph.problem.spec.name()
    if graph.fixed_mem != file.fixed_mem:
        message = ('fixed_mem %d in the file, %d traced: the graph does not match the '
                   'traced step of %s' % (file.fixed_mem, graph.fixed_mem, step))
        if 'fixed_mem' in file.attr_lines:
            raise file.error(file.attr_lines['fixed_mem'], message)
        raise UserError('%s: %s' % (file.path, message))
    missing = [v for v in file.nodes if v not in graph.by_name]
    if missing:
        raise file.error(file.lines[missing[0]], "node '%s' is not in the traced step of %s "
                         '(%d nodes in the file, %d traced)'
                         % (missing[0], step, len(file.nodes), len(graph.nodes)))
    extra = [g.name for g in graph.nodes if g.name not in file.nodes]
    if extra:
        raise UserError("%s has no node '%s' of the traced step of %s (%d nodes in the "
                        'file, %d traced)' % (file.path, extra[0], step,
                                              len(file.nodes), len(graph.nodes)))
    for g in graph.nodes:
        attrs = file.nodes[g.name]
        for what, file_value, traced in (
                ('op', attrs.get('op'), g.op),
                ('mem', file.mem[g.name], g.mem),
                ('workspace', file.workspace[g.name], g.workspace),
                ('predecessors', file.preds[g.name], {p.name for p in g.preds})):
            if file_value != traced:
                if what == 'predecessors':      # in a fixed order
                    file_value, traced = ('{%s}' % ', '.join(sorted(x))
                                          for x in (file_value, traced))
                raise file.error(file.lines[g.name], "node '%s': %s %s in the file, %s "
                                 'traced: the graph does not match the traced step of %s'
                                 % (g.name, what, file_value, traced, step))


def bitwise_equal(a, b):
    """Whether two tensors (or Nones) have the same shape, dtype and bits."""
    if a is None or b is None:
        return a is None and b is None
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    return torch.equal(a.reshape(-1).contiguous().view(torch.uint8),
                       b.reshape(-1).contiguous().view(torch.uint8))


def max_difference(a, b):
    """max |a - b|; inf where they cannot be compared."""
    if a is None or b is None or a.shape != b.shape or not b.is_floating_point():
        return float('inf')
    return (a.double() - b.double()).abs().max().item() if b.numel() else 0.0


def check_gradients(named, got, eager, traced, tolerance):
    """(ok, verdict, detail).  The plan's results must be bitwise those of
    an ordinary step; where the traced operators are not eager's kernels
    (make_fx decomposes some, e.g. silu_backward), they must be bitwise
    those of the traced step run in order, and within tolerance of the
    ordinary step."""
    differ = [n for n, a, b in zip(named, got, eager) if not bitwise_equal(a, b)]
    if not differ:
        return True, 'gradients identical', None
    off_trace = [n for n, a, b in zip(named, got, traced) if not bitwise_equal(a, b)]
    if off_trace:
        return False, 'gradients DIFFER', 'not bitwise equal to the traced step: ' + \
            ', '.join(off_trace[:5]) + (' ...' if len(off_trace) > 5 else '')
    scale = max((b.abs().max().item() for b in eager
                 if b is not None and b.is_floating_point() and b.numel()), default=0.0)
    worst = max(max_difference(a, b) for n, a, b in zip(named, got, eager) if n in differ)
    worst = worst / scale if scale else worst
    detail = ('%d of %d tensors differ from loss.backward(), by up to %.3g relative to the '
              'largest value (the traced operators are not all eager kernels); all are '
              'bitwise those of the traced step run in order' % (len(differ), len(named), worst))
    if worst <= tolerance:
        return True, 'gradients identical to the traced step, within %g of ' \
            'loss.backward()' % tolerance, detail
    return False, 'gradients DIFFER from loss.backward() by more than %g' % tolerance, detail

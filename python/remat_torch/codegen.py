"""Straight-line code for a plan: the plan's statements turned into one
Python function that calls the aten operators directly, with no per-node
interpretation left at run time.

The generated function does what execute.run_plan does, statement for
statement, and so holds the same values at every point:

  compute v into r   runs v's operators (views rebuilt from the registers
                     they read, graph inputs taken from the arguments),
                     drops each operator's value once no later operator of
                     v reads it, and keeps in r's variables what
                     OpNode.held says;
  free r             del of r's variables.

A recomputation of a node that writes graph inputs without saying so
(native_batch_norm's running statistics) gets scratch copies of them, so
the statistics are updated exactly once.  Random operators draw from the
generator as an ordinary step does, which needs the plan to run them in
traced order (checked here; every frontier-advancing plan does, since a
random node is computed once); with replay_rng they are given the RNG
states the analysis run recorded instead, as the interpreter gives them.

generate(graph, plan) returns the function's source and the callable; the
function takes the graph inputs in placeholder order (parameters, buffers,
input batch, labels, inputs without gradient) and returns the step's
results [loss, *grads]; the trace's constant tensors are bound to it.
Runtime callers run it under torch.no_grad()."""

import math

import torch

from .device import set_rng
from .errors import UserError
from .execute import check_plan_end, compute_target
from .graph import written_nodes


class _Emitter:
    """Builds the source, one line at a time, and the globals it needs."""

    def __init__(self):
        self.lines = []
        self.globals = {'torch': torch}
        self._const = {}

    def line(self, text):
        self.lines.append('    ' + text)

    def constant(self, value, prefix='c'):
        """A global name bound to value (operators, dtypes, devices, ...)."""
        key = (type(value), id(value))
        if key not in self._const:
            name = '%s%d' % (prefix, len(self._const))
            self._const[key] = name
            self.globals[name] = value
        return self._const[key]


def _literal(em, value, name_of):
    """Python source for an argument value; fx nodes through name_of."""
    if isinstance(value, torch.fx.Node):
        return name_of(value)
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else em.constant(value)
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (list, tuple)):
        inner = ', '.join(_literal(em, v, name_of) for v in value)
        if isinstance(value, tuple):
            return '(%s%s)' % (inner, ',' if len(value) == 1 else '')
        return '[%s]' % inner
    if isinstance(value, slice):
        return 'slice(%s, %s, %s)' % tuple(_literal(em, v, name_of)
                                          for v in (value.start, value.stop, value.step))
    return em.constant(value)


def _call(em, n, name_of, scratch=()):
    """Source of a call of fx node n's operator on its arguments; the
    arguments in scratch are passed as copies."""
    def arg(a):
        text = name_of(a)
        return text + '.clone()' if a in scratch else text

    def lit(v):
        return _literal(em, v, arg)
    target = em.constant(n.target, 'f')
    args = [lit(a) for a in n.args]
    args += ['%s=%s' % (k, lit(v)) for k, v in n.kwargs.items()]
    return '%s(%s)' % (target, ', '.join(args))


def check_random_order(graph, plan):
    """A plan's random operators must first run in traced order, so that
    they draw what an ordinary step draws."""
    seen = []
    for what, node, _ in plan.statements:
        g = graph.by_name.get(node) if what == 'compute' else None
        if g is not None and g.rng_states and g not in seen:
            seen.append(g)
    order = sorted(seen, key=lambda g: min(graph.position[m] for m in g.rng_states))
    if seen != order:
        raise plan.error('the plan computes random nodes %s and %s out of traced order: '
                         'training with it would not draw the random numbers an '
                         'ordinary step draws' % (order[0].name, seen[0].name))


def generate(graph, plan, name='plan_step', replay_rng=False):
    """(source, function) of the straight-line step of plan on graph (a
    graph.JointGraph).  Invalid plans are refused with a UserError, as
    execute.run_plan would refuse them.  replay_rng: restore the RNG state
    the analysis run recorded before each random operator, as the
    interpreter does (the same numbers every run, in any order), instead of
    drawing in traced order."""
    if not replay_rng:
        check_random_order(graph, plan)
    em = _Emitter()
    set_rng_state = em.constant(set_rng, 'rng')
    device = repr(graph.device)
    inputs = {ph: 'a%d' % i for i, ph in enumerate(graph.placeholders)}
    inputs.update((c, em.constant(v, 'k')) for c, v in graph.constant_values().items())
    regs = {}           # plan register -> (OpNode, {member: variable})
    holders = {}        # OpNode -> its live registers
    computed = set()
    counter = [0]

    def held_var(g, m, reader):
        """The variable of member m of g, held in a live register, as
        reader (an OpNode, None: the step's results) reads it."""
        if not holders.get(g):
            raise UserError('plan: %s reads %s, which is not in a live register '
                            '(never computed, or freed before)'
                            % ('computing ' + reader.name if reader is not None
                               else 'the end of the plan (the step\'s results)',
                               g.name))
        return regs[holders[g][-1]][1][m]

    def resolver(k, g, local, views):
        """name_of(fx node): the variable holding its value while node g
        computes (None: at the end), from its own members' variables
        (local), the live registers and the inputs; a view is emitted into
        a temporary of views (numbered by k), its bases first."""
        def name_of(a):
            kind = graph.kind[a]
            if kind == 'input':
                return inputs[a]
            if kind == 'owner':
                return local[a] if graph.group[a] is g else held_var(graph.group[a], a, g)
            if kind == 'fused':
                return name_of(written_nodes(a)[0])
            if a not in views:
                expr = _call(em, a, name_of)
                views[a] = 'w%d_%d' % (k, len(views))
                em.line('%s = %s' % (views[a], expr))
            return views[a]
        return name_of

    def emit_compute(g, reg):
        counter[0] += 1
        k = counter[0]
        local = {}          # member -> variable while computing
        views = {}          # view fx node -> temporary variable, for one
        #                     operator (as the interpreter rebuilds them, so
        #                     that no view outlives its use and holds a base)
        name_of = resolver(k, g, local, views)
        again = g in computed
        for i, m in enumerate(g.members):
            if replay_rng and m in g.rng_states:
                em.line('%s(%s, %s)' % (set_rng_state, device,
                                        em.constant(g.rng_states[m], 'state')))
            var = 't%d_%d' % (k, i)
            views.clear()
            em.line('%s = %s' % (var, _call(em, m, name_of, g.scratch(m, again))))
            local[m] = var
            dropped = list(views.values())
            dropped += [local.pop(d) for d in g.drop_after.get(i, ())]
            if dropped:
                em.line('del %s' % ', '.join(dropped))
        kept = {}
        for j, (m, indices) in enumerate(g.held.items()):
            var = 'v%d_%d' % (k, j)
            if indices is None:
                em.line('%s = %s' % (var, local[m]))
            else:       # a multi-output operator: None for what is not kept
                parts = [('%s[%d]' % (local[m], i)) if i in indices else 'None'
                         for i in range(g.arity[m])]
                em.line('%s = (%s,)' % (var, ', '.join(parts)))
            kept[m] = var
        garbage = list(local.values())
        if garbage:
            em.line('del %s' % ', '.join(garbage))
        computed.add(g)
        regs[reg] = (g, kept)
        holders.setdefault(g, []).append(reg)

    for i, (what, node, reg) in enumerate(plan.statements):
        try:
            if what == 'free':
                if reg not in regs:
                    raise UserError('plan frees register %r, which is not live'
                                    % reg)
                g, kept = regs.pop(reg)
                holders[g].remove(reg)
                if kept:
                    em.line('del %s' % ', '.join(kept.values()))
                continue
            emit_compute(compute_target(graph, node, reg, regs, computed), reg)
        except UserError as e:
            raise plan.error_at(i, e)

    # The results, read from the registers still live.
    counter[0] += 1
    result_name = resolver(counter[0], None, {}, {})
    try:
        check_plan_end(graph, computed, holders)
        outs = [result_name(r) if isinstance(r, torch.fx.Node) else _literal(em, r, None)
                for r in graph.returns]
    except UserError as e:
        raise plan.error(e)
    em.line('return [%s]' % ', '.join(outs))

    args = ', '.join(inputs[ph] for ph in graph.placeholders)
    source = 'def %s(%s):\n%s\n' % (name, args, '\n'.join(em.lines))
    scope = dict(em.globals)
    try:
        exec(compile(source, '<remat plan>', 'exec'), scope)
    except (SyntaxError, RecursionError) as e:
        raise plan.error('internal: generated code does not compile: %s' % e)
    return source, scope[name]

"""The graph model: OpNode, a node of remat-plan's graph (operators that run
together), and JointGraph, the traced step grouped into such nodes.

trace.trace_graph builds a JointGraph and coarsen.coarsen regroups one; both
end with JointGraph.settle(), which decides what each node's register holds,
orders the nodes and tells forward from backward.  execute.py runs the
nodes.  How operators become nodes is explained in trace.py."""

import heapq
import operator

import torch
import torch.utils._pytree as pytree

from .errors import UserError
from .storage import storages


def written_nodes(n):
    """The fx nodes bound to the arguments that n's schema says it writes."""
    if not isinstance(n.target, torch._ops.OpOverload):
        return []
    found = []
    for i, arg in enumerate(n.target._schema.arguments):
        if arg.alias_info is not None and arg.alias_info.is_write:
            value = n.args[i] if i < len(n.args) else n.kwargs.get(arg.name)
            found += [a for a in pytree.tree_flatten(value)[0] if isinstance(a, torch.fx.Node)]
    return found


def op_name(target):
    """The name of an fx node's operator, as the op attribute gives it."""
    return 'getitem' if target is operator.getitem else str(target)


def reach(start, edges):
    """start and everything reachable from it through edges(x)."""
    seen, stack = set(start), list(start)
    while stack:
        for y in edges(stack.pop()):
            if y not in seen:
                seen.add(y)
                stack.append(y)
    return seen


class OpNode:
    """A node of the exported graph: operators that run together, in traced
    order (members).  Usually one operator that owns its outputs, followed
    by the in-place operators that write them."""

    def __init__(self, fx, position):
        self.members = [fx]
        self.position = position    # of the first member in the trace
        self.preds = set()          # OpNodes read; a list in order once settled
        self.held = {}              # member -> None (all outputs) or the
        #                             indices of the outputs a register keeps
        self.arity = {}             # held multi-output member -> its outputs
        self.drop_after = {}        # i -> members whose values are dropped
        #                             once member i has run
        self.mem = 0
        self.workspace = 0
        self.updates_input = False  # in-place update of a graph input
        self.hidden_writes = {}     # member -> args it writes without saying so
        self.rng_states = {}        # random member -> RNG state before it ran
        self.cost = 0.0
        self.forward = False
        self.output = False

    @property
    def name(self):
        return self.members[0].name

    @property
    def op(self):
        return '+'.join(op_name(m.target) for m in self.members)

    @property
    def recompute(self):
        return not (self.rng_states or self.updates_input)

    def scratch(self, member, again):
        """The arguments of member to pass as copies: on a recomputation
        (again), the graph inputs it writes, so that they are updated
        exactly once, by the first computation."""
        if not again:
            return ()
        if self.updates_input:
            return set(written_nodes(member))
        return self.hidden_writes.get(member, set())

    def held_values(self, values):
        """What a register keeps of the node's values ({member: value}):
        the held members, a multi-output one with None in place of the
        outputs it does not hold."""
        return {m: values[m] if kept is None else
                tuple(v if i in kept else None for i, v in enumerate(values[m]))
                for m, kept in self.held.items()}


class JointGraph:
    """The traced step as remat-plan's dataflow graph, plus what is needed to
    compute any of its nodes again.

    gm is the traced fx graph.  kind maps each of its fx nodes to 'input'
    (placeholders: parameters, buffers, input batch, labels), 'owner' (owns
    fresh storage), 'fused' (in-place, runs in the node of the storage it
    writes), 'view' (aliases existing storage) or 'dead'; group maps owner
    and fused fx nodes to the OpNode they run in.  nodes are the OpNodes in
    a topological order, by_name finds them by id.  env holds the value of
    every fx node from the analysis run until release()."""

    def __init__(self, problem, gm):
        self.problem = problem
        self.device = problem.spec.device
        self.gm = gm
        self.placeholders = [n for n in gm.graph.nodes if n.op == 'placeholder']
        # tensors the step creates from Python values (torch.tensor(...) in a
        # forward: index tables, scales), which make_fx keeps as attributes
        # of gm; like the placeholders, resident for the whole run
        self.constants = [n for n in gm.graph.nodes if n.op == 'get_attr']
        calls = [n for n in gm.graph.nodes if n.op == 'call_function']
        self.position = {n: i for i, n in enumerate(calls)}
        self.env = {}
        self.kind = {}
        self.group = {}
        self.groups = {}    # the OpNodes (an ordered set)
        self.fixed = {}     # placeholder storages: key -> bytes
        self.fixed_mem = 0
        self.nodes = []
        self.by_name = {}
        # The step as traced, run in order: what every plan must reproduce.
        self.traced_results = []
        self.traced_buffers = []
        self._sources = {}

    @property
    def calls(self):
        """The operators (call_function fx nodes) in traced order."""
        return list(self.position)

    def input_name(self, n):
        """What graph input fx node n is, in words."""
        pb = self.problem
        names = (['parameter ' + s for s in pb.param_names]
                 + ['buffer ' + s for s in pb.buffer_names] + ['the input batch', 'the labels']
                 + ['%s (an input without gradient)' % s for s in pb.frozen_names])
        if n in self.placeholders and self.placeholders.index(n) < len(names):
            return names[self.placeholders.index(n)]
        return 'constant %s' % n.target

    def buffer_placeholders(self):
        """The placeholders of the model's buffers."""
        first = len(self.problem.params)
        return self.placeholders[first:first + len(self.problem.buffers)]

    @property
    def returns(self):
        """The fx nodes (or constants) of the step's results: loss, grads."""
        return returns(self.gm)

    def sources(self, n):
        """What value n reads from the registers: a set of (owner fx node,
        output index, or None for all of it)."""
        if n not in self._sources:
            kind = self.kind[n]
            if kind == 'input':
                found = frozenset()
            elif kind == 'owner':
                found = frozenset([(n, None)])
            elif kind == 'fused':
                found = self.sources(written_nodes(n)[0])
            elif n.target is operator.getitem and self.kind[n.args[0]] == 'owner':
                found = frozenset([(n.args[0], n.args[1])])
            else:
                found = frozenset().union(*(self.sources(a) for a in n.all_input_nodes))
            self._sources[n] = found
        return self._sources[n]

    def reads(self, n):
        """The sources of fx node n's arguments."""
        return frozenset().union(*(self.sources(a) for a in n.all_input_nodes))

    def result_sources(self):
        """The sources of the step's results."""
        return frozenset().union(*(self.sources(r) for r in self.returns
                                   if isinstance(r, torch.fx.Node)))

    def settle(self):
        """Once the operators are grouped: registers, order, kinds."""
        self._hold()
        self._order()
        self._classify()

    def _hold(self):
        """Decides what the register of each node holds (the outputs that
        other nodes or the step's results read), its mem and workspace."""
        result = self.result_sources()
        used = {}
        for src, index in result:
            used.setdefault(src, set()).add(index)
        for g in self.groups:
            for m in g.members:
                for src, index in self.reads(m):
                    if self.group[src] is not g:
                        used.setdefault(src, set()).add(index)
        for g in self.groups:
            g.output = g.updates_input or any(self.group[src] is g for src, _ in result)
            g.held = {}
            g.arity = {}
            for m in g.members:
                if m in used:
                    value = self.env[m]
                    g.held[m] = (sorted(used[m]) if isinstance(value, (tuple, list))
                                 and None not in used[m] else None)
                    if g.held[m] is not None:
                        g.arity[m] = len(value)
            kept = storages(list(g.held_values(self.env).values()))
            g.mem = sum(b for k, b in kept.items() if k not in self.fixed)
            # While the node computes, a value lives from its operator to
            # the last operator of the node reading it (to the end if the
            # register keeps it); only owners hold storage of their own.
            step = {m: i for i, m in enumerate(g.members)}
            last = dict(step)
            for i, m in enumerate(g.members):
                for src, _ in self.reads(m):
                    if src in step:
                        last[src] = i
            g.drop_after = {}
            for m, i in last.items():
                if m not in g.held:
                    g.drop_after.setdefault(i, []).append(m)
            alive = peak = 0
            for i, m in enumerate(g.members):
                if self.kind[m] == 'owner':
                    alive += sum(b for k, b in storages(self.env[m]).items()
                                 if k not in self.fixed)
                peak = max(peak, alive)
                for d in g.drop_after.get(i, ()):
                    if self.kind[d] == 'owner':
                        alive -= sum(b for k, b in storages(self.env[d]).items()
                                     if k not in self.fixed)
            g.workspace = peak - g.mem

    def _order(self):
        """nodes: a topological order, as close to the traced one as
        possible (a merged node may read nodes traced after its first
        member)."""
        waiting = {g: len(g.preds) for g in self.groups}
        users = {g: [] for g in self.groups}
        for g in self.groups:
            for p in g.preds:
                users[p].append(g)
        ready = [(g.position, g.name, g) for g, k in waiting.items() if k == 0]
        heapq.heapify(ready)
        self.nodes = []
        while ready:
            g = heapq.heappop(ready)[2]
            self.nodes.append(g)
            for u in users[g]:
                waiting[u] -= 1
                if waiting[u] == 0:
                    heapq.heappush(ready, (u.position, u.name, u))
        for g in self.nodes:
            g.preds = sorted(g.preds, key=lambda p: p.position)
        self.by_name = {g.name: g for g in self.nodes}

    def _classify(self):
        """forward: the loss's node and the nodes it depends on."""
        for g in self.nodes:
            g.forward = False
        loss = {self.group[src] for src, _ in self.sources(self.returns[0])}
        for g in reach(loss, lambda g: g.preds):
            g.forward = True

    def run_inputs(self):
        """Fresh graph inputs for a run, keyed by placeholder."""
        return dict(zip(self.placeholders, self.problem.inputs()))

    def constant_values(self):
        """The traced step's constant tensors, keyed by their get_attr node."""
        values = {}
        for n in self.constants:
            value = getattr(self.gm, n.target, None)
            if not isinstance(value, torch.Tensor):
                raise UserError('the traced step reads attribute %s, which is %s, '
                                'not a tensor: not supported'
                                % (n.target, type(value).__name__))
            values[n] = value
        return values

    def release(self):
        """Drops the analysis run's values."""
        self.env = {}


def returns(gm):
    """The fx nodes (or constants) a traced step returns."""
    out = [n for n in gm.graph.nodes if n.op == 'output'][0]
    return pytree.tree_flatten(out.args[0])[0]

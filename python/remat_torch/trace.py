"""Tracing a training step and analysing it into remat-plan's graph.

One training step (forward, cross-entropy loss, backward) of a model is traced
with torch.fx.experimental.proxy_tensor.make_fx into a joint graph of aten
operators, then analysed by running it once on real tensors.  The analysis
turns the fx graph into the dataflow graph of remat-plan(5) (a JointGraph,
graph.py), which knows how to run one of its nodes on its own (execute.py),
which is what the executor needs.

Modelling choices (they decide what the memory model predicts, so that the
executor measures the same):

Graph inputs.  The parameters, buffers, input batch, labels, frozen
parameters (requires_grad off: no gradient) and tensors that modules keep as
plain attributes are the fx graph's placeholders; tensors the forward pass
makes from Python values (torch.tensor(...) in Swin's attention) are
constants of the trace (get_attr).  Neither are nodes: they stay resident
for the whole step, and the bytes of their distinct storages are the graph
attribute fixed_mem.  The step runs the model with the step's tensors
(step.call_with, which also reaches tied weights and recurrent layers); a
trace that reads a trainable parameter or buffer of the model itself as a
constant would lose its gradient or update, and is refused.  The model's own
checkpointing (torch.utils.checkpoint) runs its function plainly while it is
traced.

Storage ownership.  Each operator output either owns fresh storage or aliases
a storage that already exists; this is decided empirically, by comparing
storage addresses while the analysis run keeps every value alive (so no
address can be reused).  An operator whose outputs partly alias and partly
own storage is refused.

Nodes.  A node is a group of operators that run together, in traced order:
usually one operator owning fresh storage followed by the in-place operators
that write into it (see below).  Its id is the fx name of its first operator
and its op attribute joins the operator names with '+'; cost is the time of
running the whole group.  A node's register holds the outputs that other
nodes or the step's results read: mem is the bytes of their storages.
Everything else its operators allocate (outputs nobody reads) exists only
while it computes: those bytes are its workspace.

Views and aliases.  An operator whose outputs all alias existing storage
(view, t, expand, _reshape_alias, detach, getitem, ...) is not a node.  A
consumer of a view gets edges from the nodes owning the storage the view
transitively reads, so the plan keeps the base alive exactly as long as the
view is needed; the executor rebuilds the view chain from the base each time
a consumer runs (views cost no memory and almost no time).

Multi-output operators.  An operator returning a tuple or list (e.g.
native_batch_norm, convolution_backward) is one node with mem = the bytes of
the outputs read later; getitem is a view of it.  A result (a gradient) that
such an operator returns beside values other operators read is copied into a
node of its own (aten.clone), so that a plan can free those values before
the step ends instead of holding them with the result.

In-place operators.  make_fx records the in-place operators that autograd
and the model really run (relu_, add_ for residual sums, bernoulli_ and div_
for dropout, copy_ for autograd's CopySlices, ...).  One writing an
intermediate storage joins the node owning that storage, so that recomputing
the node always starts from fresh storage and never sees a half-written
value.  If other nodes read that storage before the write (they need the old
value), they are merged into that node too, with every node between them so
that the graph stays acyclic; this is rare (EfficientNet's SiLU(inplace=True)
on a view).  An in-place update of a graph input whose result nobody reads
(BatchNorm's num_batches_tracked += 1) is a node with output=true (its
effect is a result of the step), recompute=false and mem 0.  Operators that
write graph inputs without saying so in their schema (native_batch_norm
updating running statistics) are found by comparing their inputs before and
after running them; the executor lets the first computation update the real
buffers and gives recomputations scratch copies, so the statistics are
updated exactly once, as in an ordinary step.

Random operators (tag nondeterministic_seeded: bernoulli, rand*, ...) make
their node recompute=false.  The analysis run records the RNG state before
each of them, and the executor restores it before running it, so a plan
draws the same random numbers as an ordinary step whatever its order.

Dead operators (no reader, not a result, no side effect) are dropped.

Forward and backward.  A node is forward when the loss depends on it (it is
the node owning the loss or one of its ancestors); every other node --
gradient seed, gradient operators, input updates -- is backward.

Layers.  While tracing, each operator the forward pass of a submodule runs
is labelled with that module's qualified name; --coarsen merges the nodes of
a layer with it (coarsen.py).

Shapes only.  With spec.shapes_only the step is traced and analysed on fake
tensors (FakeTensorMode): every operator yields an output of the right
shape, dtype and storage, with no memory and no computation.  Storage
ownership is found the same way (a fake storage is told apart by its
object); the writes to graph inputs that the analysis would find by
comparing values come from a list instead (_HIDDEN_WRITES); operators
without a shape function in this PyTorch get one from fakeops.py.  The
graph is the one a real trace gives; its costs must then come from a cost
model (costmodel.py).

Node ids are the fx node names, which make_fx assigns deterministically for a
given model, seed and input shape, so the executor re-traces the model and
finds the same ids.
"""

import contextlib
import operator

import torch
import torch.nn as nn
from torch.fx.experimental.proxy_tensor import make_fx

from . import fakeops
from .coarsen import coarsen
from .device import autocast, get_rng
from .errors import UserError, first_line
from .execute import results
from .graph import JointGraph, OpNode, op_name, reach, returns, written_nodes
from .step import call_with
from .storage import storage_key, storages


def trace_graph(problem, progress=None):
    """Traces one training step of problem and analyses it into the graph
    (coarsened to layers at module depth problem.spec.coarsen if set).  The
    analysis run's values stay in graph.env, for profiling, until
    graph.release().  progress(message) hears what it is doing."""
    say = progress or (lambda msg: None)
    say('tracing one training step of %s%s' % (problem.spec.name(), ' (shapes only)'
                                                if problem.spec.shapes_only else ''))
    with (fakeops.fallbacks_reported(say) if problem.spec.shapes_only
          else contextlib.nullcontext()):
        gm = trace_step(problem)
        _separate_results(gm)
        graph = JointGraph(problem, gm)
        calls = graph.calls
        say('analysing %d operators' % len(calls))
        _Analysis(graph).run(calls)
    _keep(graph)
    graph.settle()
    if problem.spec.coarsen:
        before = len(graph.nodes)
        coarsen(graph, problem.spec.coarsen)
        say('coarsened %d operator nodes to %d at module depth %d'
            % (before, len(graph.nodes), problem.spec.coarsen))
    if not problem.spec.shapes_only:    # fake tensors have no values to compare
        graph.traced_results = results(graph, lambda g: graph.env, graph.env)
        graph.traced_buffers = [graph.env[ph] for ph in graph.buffer_placeholders()]
    return graph


def trace_step(problem):
    """make_fx of one step (params, buffers, x, y, inputs without gradient) ->
    [loss, *grads]."""
    model, pnames, bnames = problem.model, problem.param_names, problem.buffer_names

    def step(params, buffers, x, y, frozen):
        state = dict(zip(pnames, params))
        state.update(zip(bnames, buffers))
        state.update(zip(problem.frozen_names, frozen))
        with autocast(problem.spec):
            loss = problem.loss(call_with(model, state, x), y)
        if not isinstance(loss, torch.Tensor) or loss.dim() != 0:
            raise UserError('the loss is %s, not a scalar tensor'
                            % ('a tensor of shape %s' % (tuple(loss.shape),)
                               if isinstance(loss, torch.Tensor) else type(loss).__name__))
        return [loss] + list(torch.autograd.grad(loss, params, allow_unused=True))

    for name, m in model.named_modules():
        if isinstance(m, torch.jit.ScriptModule):
            raise UserError('%s is a TorchScript module (torch.jit.script or '
                            'torch.jit.trace): its parameters cannot be the step\'s '
                            'inputs; give the Python module' % (
                                'submodule ' + name if name else 'the model'))
    params = [p.clone().requires_grad_() for p in problem.params]
    buffers = [b.clone() for b in problem.buffers]
    if problem.spec.shapes_only:
        fakeops.register()
    torch.manual_seed(problem.spec.seed)
    try:
        with _module_labels(model), _plain_checkpoints():
            gm = make_fx(step, tracing_mode='fake' if problem.spec.shapes_only
                         else 'real')(params, buffers, problem.x, problem.y,
                                      list(problem.frozen))
    except UserError:
        raise
    except Exception as e:
        if 'get value out of a tracing tensor' in str(e):   # Python control flow
            raise UserError('the step cannot be traced into a fixed graph: Python '
                            'code reads a tensor value (%s)' % _FIXED_GRAPH_HINT)
        raise UserError('tracing the training step failed: %s' % first_line(e))
    _check_static(gm)
    _check_constants(gm, problem)
    return gm


def _check_constants(gm, problem):
    """Refuses a step that reads one of the model's trainable parameters or
    buffers as a constant of the trace, not as the step's input: a module
    that keeps a reference of its own to it, past functional_call.  Its
    gradient, or its update, would be lost without a word (call_with()
    covers tied weights and nn.LSTM).  A frozen parameter read so is
    harmless: it has no gradient and is never updated."""
    model = problem.model
    named = {}
    for name, t in (list(model.named_parameters()) + list(model.named_buffers())):
        if t.numel() and (t.requires_grad or not isinstance(t, nn.Parameter)):
            named.setdefault((t.device, t.data_ptr()), name)
    for n in gm.graph.nodes:
        if n.op != 'get_attr':
            continue
        value = getattr(gm, n.target, None)
        if not isinstance(value, torch.Tensor) or not value.numel():
            continue
        name = named.get((value.device, value.data_ptr()))
        if name is not None:
            raise UserError('the step reads %s of the model directly, past '
                            'functional_call (a module that keeps its own reference '
                            'to it): its gradient or update would be lost; not supported'
                            % name)


# Operators whose result depends on tensor values in a way a trace cannot
# keep: a value read into Python (if x.sum() > 0, x.item(), ...) or a shape
# that depends on the data (nonzero, masked_select, unique).  make_fx on real
# tensors records them and specializes the rest of the step to this batch.
_DATA_DEPENDENT = ('_local_scalar_dense', 'is_nonzero', 'equal', 'nonzero',
                   'masked_select', 'unique', '_unique', '_unique2', 'unique_dim',
                   'unique_consecutive', 'item')


def _check_static(gm):
    """Refuses a step whose operators depend on tensor values."""
    for n in gm.graph.nodes:
        if n.op != 'call_function' or not isinstance(n.target, torch._ops.OpOverload):
            continue
        name = n.target.overloadpacket.__name__
        if name in _DATA_DEPENDENT or (name in _INDEXING and _mask_index(n)):
            raise UserError('the step cannot be traced into a fixed graph: %s %s '
                            '(%s)' % ('indexes with a boolean mask in' if name in _INDEXING
                                      else 'reads tensor values in', op_name(n.target),
                                      _FIXED_GRAPH_HINT))


_FIXED_GRAPH_HINT = ('data-dependent control flow or shapes, e.g. if x.sum() > 0, '
                     '.item(), x[x > 0]')


# Indexing operators: with a boolean mask, their shapes depend on the data.
_INDEXING = ('index', 'index_put', 'index_put_', '_index_put_impl_')


def _mask_index(n):
    """Whether indexing operator n has a boolean (or byte) mask index."""
    indices = n.args[1] if len(n.args) > 1 else n.kwargs.get('indices', ())
    for a in indices or ():
        meta = a.meta.get('tensor_meta') if isinstance(a, torch.fx.Node) else None
        if meta is not None and meta.dtype in (torch.bool, torch.uint8):
            return True
    return False


class _PlainCheckpoint:
    """torch.utils.checkpoint's CheckpointFunction, that only runs the
    function."""

    @staticmethod
    def apply(function, preserve_rng_state, *args):
        return function(*args)


def _plain_forward(function, preserve_rng_state=True, *args, **kwargs):
    return function(*args, **kwargs)


@contextlib.contextmanager
def _plain_checkpoints():
    """While tracing, torch.utils.checkpoint (and checkpoint_sequential)
    in the model only runs the function it is given: the plan is what
    decides what to compute again.  Checkpointing's own recomputation runs
    in the backward pass, outside the step's parameters (a trace with it
    failed: the reentrant kind refuses autograd.grad, and the other read
    the model's own weights there)."""
    import torch.utils.checkpoint as ckpt
    saved = ckpt.CheckpointFunction, ckpt._checkpoint_without_reentrant
    ckpt.CheckpointFunction, ckpt._checkpoint_without_reentrant = \
        _PlainCheckpoint, _plain_forward
    try:
        yield
    finally:
        ckpt.CheckpointFunction, ckpt._checkpoint_without_reentrant = saved


@contextlib.contextmanager
def _module_labels(model):
    """While tracing, every fx node created while a submodule of model runs
    its forward gets meta['remat_module'] = the innermost such module's
    qualified name (the root module is ''); nodes traced outside (the loss,
    the backward pass) get none.  Coarsening groups operators by it."""
    names = {id(m): name for name, m in model.named_modules()}
    stack = []

    def pre(module, args):
        stack.append(names.get(id(module), stack[-1] if stack else None))

    def post(module, args, out):
        stack.pop()

    create_node = torch.fx.Graph.create_node

    def labelled(self, *args, **kwargs):
        node = create_node(self, *args, **kwargs)
        if stack and stack[-1] is not None:
            node.meta['remat_module'] = stack[-1]
        return node
    handles = [nn.modules.module.register_module_forward_pre_hook(pre),
               nn.modules.module.register_module_forward_hook(post)]
    torch.fx.Graph.create_node = labelled
    try:
        yield
    finally:
        torch.fx.Graph.create_node = create_node
        for h in handles:
            h.remove()


def _separate_results(gm):
    """A result (a gradient) that a multi-output operator returns beside
    values other operators read is copied into a node of its own
    (aten.clone), so that a plan can free those values early instead of
    holding them until the end of the step with the result."""
    graph = gm.graph
    out = [n for n in graph.nodes if n.op == 'output'][0]
    results = set(returns(gm))
    copies = {}
    for n in list(graph.nodes):
        items = [u for u in n.users if u.target is operator.getitem]
        if any(set(g.users) - {out} for g in items):
            for g in items:
                if g in results:
                    with graph.inserting_after(g):
                        copies[g] = graph.call_function(torch.ops.aten.clone.default, (g,))
    out.args = torch.fx.node.map_arg(out.args, lambda a: copies.get(a, a))


# Operators that write graph inputs without saying so in their schema, and
# the positions of the arguments they write: batch normalization in training
# updates the running statistics.  On real tensors the analysis finds them by
# comparing values; on fake tensors it has only this list.
_HIDDEN_WRITES = {'native_batch_norm': (3, 4), 'cudnn_batch_norm': (3, 4),
                  'miopen_batch_norm': (3, 4)}


def _known_hidden_writes(n):
    """The fx nodes of the graph inputs operator n writes without saying so."""
    if not isinstance(n.target, torch._ops.OpOverload):
        return set()
    where = _HIDDEN_WRITES.get(n.target.overloadpacket.__name__, ())
    training = n.args[5] if len(n.args) > 5 else n.kwargs.get('training', False)
    if not where or not training:
        return set()
    return {n.args[i] for i in where
            if i < len(n.args) and isinstance(n.args[i], torch.fx.Node)}


def _is_random(op):
    return (isinstance(op, torch._ops.OpOverload)
            and torch.Tag.nondeterministic_seeded in op.tags)


class _Analysis:
    """The analysis run: runs the traced operators in order on real tensors,
    keeping every value, and groups them into nodes as it goes (fills the
    graph's env, kind, group, groups and fixed)."""

    def __init__(self, graph):
        self.graph = graph
        self.owner = {}     # storage key -> fx node owning it (placeholder or owner)
        self.readers = {}   # storage key -> owner and fused nodes that read it

    def run(self, calls):
        graph = self.graph
        env, kind, owner = graph.env, graph.kind, self.owner
        inputs = graph.problem.inputs()
        if len(inputs) != len(graph.placeholders):
            raise UserError('internal: %d graph inputs for %d placeholders'
                            % (len(inputs), len(graph.placeholders)))
        constants = graph.constant_values()
        self.fake = None
        if graph.problem.spec.shapes_only:
            from torch._subclasses.fake_tensor import FakeTensor, FakeTensorMode
            self.fake = FakeTensorMode()
            inputs = [self.fake.from_tensor(v) for v in inputs]
            constants = {c: v if isinstance(v, FakeTensor) else self.fake.from_tensor(v)
                         for c, v in constants.items()}
        for ph, value in list(zip(graph.placeholders, inputs)) + list(constants.items()):
            env[ph] = value
            kind[ph] = 'input'
            for key, nbytes in storages(value).items():
                owner.setdefault(key, ph)
                graph.fixed[key] = nbytes
        graph.fixed_mem = sum(graph.fixed.values())
        torch.manual_seed(graph.problem.spec.seed)
        with torch.no_grad(), (self.fake or contextlib.nullcontext()):
            for n in calls:
                self._step(n)

    def _step(self, n):
        """Runs operator n and puts it in a node, or finds it is a view."""
        graph = self.graph
        env, owner = graph.env, self.owner
        group = None
        mutated = {k for a in written_nodes(n) for k in storages(env[a])}
        if mutated:
            roots = {owner[k] for k in mutated}
            kinds = {graph.kind[r] for r in roots}
            if kinds == {'input'}:
                if n.users:
                    raise UserError('%s (%s) updates %s in place and the step reads '
                                    'what it wrote: not supported'
                                    % (n.name, op_name(n.target),
                                       ', '.join(sorted(graph.input_name(r) for r in roots))))
                group = self._new_node(n)
                group.updates_input = True
            elif 'input' in kinds:
                raise UserError('%s writes a graph input and an intermediate '
                                'value: not supported' % n.name)
            else:
                group = self._fuse(n, {graph.group[r] for r in roots}, mutated)
        args = torch.fx.node.map_arg(n.args, lambda a: env[a])
        kwargs = torch.fx.node.map_arg(n.kwargs, lambda a: env[a])
        watched = {} if mutated or self.fake else {
            a: env[a].clone() for a in n.all_input_nodes
            if isinstance(env[a], torch.Tensor)
            and storage_key(env[a]) in graph.fixed}
        rng = get_rng(graph.device) if _is_random(n.target) else None
        target = n.target
        if self.fake and target is torch.ops.aten.lift_fresh_copy.default:
            # the same fresh copy (of a constant: torch.tensor(...) in a
            # forward); PyTorch 1.13's fake tensors recurse without end on it
            target = torch.ops.aten.clone.default
        try:
            value = target(*args, **kwargs)
        except Exception as e:
            raise UserError('running %s (%s) failed: %s'
                            % (n.name, op_name(n.target), first_line(e)))
        if self.fake:    # no values to compare: the operators known to do it
            hidden = _known_hidden_writes(n) if not mutated else set()
        else:
            hidden = {a for a, before in watched.items() if not torch.equal(before, env[a])}
        env[n] = value
        if group is None:
            if self._is_view(n, value):
                return
            group = self._new_node(n)
            for key in storages(value):
                owner[key] = n
        if rng is not None:
            group.rng_states[n] = rng
        if hidden:
            group.hidden_writes[n] = hidden
        group.preds.update(graph.group[src] for src, _ in graph.reads(n))
        group.preds.discard(group)
        for a in n.all_input_nodes:
            for key in storages(env[a]):
                self.readers.setdefault(key, set()).add(n)

    def _new_node(self, n):
        graph = self.graph
        graph.kind[n] = 'owner'
        group = graph.group[n] = OpNode(n, graph.position[n])
        graph.groups[group] = None
        return group

    def _is_view(self, n, value):
        """Whether n's outputs all alias existing storage; refuses a mix."""
        if isinstance(value, (tuple, list)):
            if any(isinstance(v, (tuple, list)) for v in value):
                raise UserError('%s returns nested sequences: not supported' % n.name)
        elif value is not None and not isinstance(value, (torch.Tensor, int, float, bool)):
            raise UserError('%s returns %s: not supported' % (n.name, type(value).__name__))
        aliased = [k in self.owner for k in storages(value)]
        if any(aliased) and not all(aliased):
            raise UserError('%s (%s) returns both fresh and aliased storage: '
                            'not supported' % (n.name, op_name(n.target)))
        if aliased and all(aliased):
            self.graph.kind[n] = 'view'
            return True
        return False

    def _fuse(self, n, roots, mutated):
        """The node in which in-place n, writing intermediate storage, runs:
        the node owning that storage, merged with every node that read the
        storage before n wrote it (they must run before n, with n) and with
        every node between them, so that the graph stays acyclic."""
        graph = self.graph
        home = min(roots, key=lambda g: g.position)
        merge = set(roots)
        merge.update(graph.group[r] for k in mutated for r in self.readers.get(k, ()))
        merge.update(g for g in (graph.group[src] for src, _ in graph.reads(n))
                     if home in reach([g], lambda x: x.preds))
        if merge != {home}:
            users = {}
            for g in graph.groups:
                for p in g.preds:
                    users.setdefault(p, []).append(g)
            between = (reach(merge, lambda x: users.get(x, ()))
                       & reach(merge, lambda x: x.preds))
            self._merge(home, between)
        graph.kind[n] = 'fused'
        graph.group[n] = home
        home.members.append(n)
        return home

    def _merge(self, home, groups):
        graph = self.graph
        for g in groups - {home}:
            for m in g.members:
                graph.group[m] = home
            home.members += g.members
            home.preds |= g.preds
            home.rng_states.update(g.rng_states)
            home.hidden_writes.update(g.hidden_writes)
            home.position = min(home.position, g.position)
            del graph.groups[g]
        home.members.sort(key=graph.position.get)
        home.preds -= groups
        for g in graph.groups:
            if g is not home and g.preds & groups:
                g.preds = (g.preds - groups) | {home}


def _keep(graph):
    """Drops dead nodes."""
    live = reach({graph.group[src] for src, _ in graph.result_sources()}
                 | {g for g in graph.groups if g.updates_input or g.rng_states},
                 lambda g: g.preds)
    for g in list(graph.groups):
        if g not in live:
            del graph.groups[g]
            for m in g.members:
                graph.kind[m] = 'dead'

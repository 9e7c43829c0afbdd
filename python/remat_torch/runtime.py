"""Training with a plan: remat_torch.compile turns a model, an example batch
and a memory budget into a step function that runs forward and backward by
a remat-plan plan, as generated straight-line code.

    step = remat_torch.compile(model, x, y, budget='8G')
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in batches:
        opt.zero_grad()
        loss = step(x, y)
        opt.step()

Each call leaves the gradients in the parameters' .grad as loss.backward()
would (accumulating into existing ones), updates the buffers (BatchNorm
statistics) once, as an ordinary step does, and returns the loss, detached.
Any optimizer works with it.  Dropout draws the numbers an ordinary step
would draw from the same RNG state.  With a process group (torch.distributed),
the gradients are then averaged over its processes as DistributedDataParallel
averages them.

The step is traced once, on the example batch; every later batch must have
the example's shapes and dtypes (a fixed graph has fixed sizes).  compile
either plans the step itself (trace, profile, write the graph, run
remat-plan at the budget) or loads a graph and plan made before (graph=,
plan=): the re-traced step must then be exactly the graph's."""

import copy
import os
import shutil
import subprocess
import tempfile
import time

import torch
import torch.nn as nn

from .codegen import generate
from .costmodel import parse as parse_cost_model, roofline
from .device import autocast, get_rng, rng_devices, set_rng, setup_torch, synchronize
from .errors import UserError
from .execute import check_match, run_plan
from .graphio import GraphFile, Plan, predicted_cost, predicted_peak, write_graph
from .profile import profile
from .spec import ModelSpec
from .step import cross_entropy, make_problem, tensor_at
from .trace import trace_graph


def remat_plan_program():
    """The remat-plan to run: $REMAT_PLAN, else the one built beside this
    package in a source tree, else remat-plan on PATH."""
    if os.environ.get('REMAT_PLAN'):
        return os.environ['REMAT_PLAN']
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
    built = os.path.join(top, 'remat-plan')
    if os.path.isfile(built) and os.access(built, os.X_OK):
        return built
    found = shutil.which('remat-plan')
    if found is None:
        raise UserError('remat-plan is not on PATH (set REMAT_PLAN to its path)')
    return found


def run_remat_plan(graph_path, plan_path, budget, strategy=None, time_limit=None,
                   program=None, progress=None):
    """Plans graph_path within budget (remat-plan's syntax: '8G', '60%',
    bytes) and writes the chosen plan to plan_path.  No plan: UserError
    with remat-plan's reason."""
    cmd = [program or remat_plan_program(), '--graph', graph_path, '--budget', str(budget),
           '-o', plan_path]
    if strategy:
        cmd += ['--strategy', strategy]
    if time_limit is not None:
        cmd += ['--time-limit', str(time_limit)]
    if progress:
        progress('planning: %s' % ' '.join(cmd[1:]))
    try:
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True)
    except OSError as e:
        raise UserError('cannot run %s: %s' % (cmd[0], e.strerror))
    if done.returncode != 0:
        lines = [l for l in done.stderr.splitlines() if l.startswith('remat-plan: ')]
        why = lines[-1][len('remat-plan: '):] if lines else \
            'exit status %d' % done.returncode
        raise UserError('remat-plan found no plan: %s' % why if done.returncode == 1
                        else 'remat-plan failed: %s' % why)
    return done.stdout


def device_capacity(device):
    """Bytes the device can hold: a CUDA device's total memory, or the
    memory this machine has available for the CPU."""
    if device == 'cuda':
        return torch.cuda.get_device_properties(torch.cuda.current_device()).total_memory
    try:
        with open('/proc/meminfo') as f:
            for line in f:
                if line.startswith('MemAvailable:'):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES')


class Step:
    """A training step that runs by a plan (see the module's text)."""

    def __init__(self, model, problem, joint, plan, graph_file, process_group=None):
        self.model = model
        self._joint = joint
        self.plan = plan
        self.graph_file = graph_file
        self.predicted_peak = predicted_peak(graph_file, plan)
        self.source, self._run = generate(joint, plan)
        named = dict(model.named_parameters())
        self._params = [named[n] for n in problem.param_names]
        buffers = dict(model.named_buffers())
        self._buffers = [buffers[n] for n in problem.buffer_names]
        self._frozen = [tensor_at(model, n) for n in problem.frozen_names]
        self._example = [(t.shape, t.dtype, t.device) for t in (problem.x, problem.y)]
        self.process_group = process_group

    @property
    def predicted_cost(self):
        """The plan's cost over the baseline, on the graph's numbers."""
        return predicted_cost(self.graph_file, self.plan)

    def measure_peak(self):
        """Runs the plan once in execute.py's measuring interpreter, on the
        example batch with the current parameters (buffers copied, results
        dropped, the RNG state left alone), and returns the peak of live
        tensor bytes it measured: the figure predicted_peak predicts."""
        with torch.random.fork_rng(devices=rng_devices(self._joint.device)):
            return run_plan(self._joint, self.plan, measure=True)[2]

    def __call__(self, x, y):
        for what, t, (shape, dtype, device) in zip(('input', 'labels'), (x, y),
                                                   self._example):
            if not isinstance(t, torch.Tensor) or t.shape != shape or \
                    t.dtype != dtype or t.device != device:
                raise ValueError('remat_torch step: %s must be a %s tensor of shape %s '
                                 'on %s, as when the step was compiled'
                                 % (what, dtype, tuple(shape), device))
        with torch.no_grad():
            out = self._run(*[p.detach() for p in self._params], *self._buffers, x, y,
                            *[p.detach() for p in self._frozen])
            loss = out[0]
            for p, g in zip(self._params, out[1:]):
                if g is None:
                    continue
                if p.grad is None:
                    p.grad = g
                else:
                    p.grad += g         # as autograd's AccumulateGrad does
            del out
            if self.process_group is not None:
                all_reduce_gradients(self._params, self.process_group)
        return loss.detach()


def all_reduce_gradients(params, group):
    """Averages the gradients over the processes of group as
    DistributedDataParallel does: each scaled by 1/world size, then summed
    by an all-reduce (one flat buffer)."""
    import torch.distributed as dist
    from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors
    grads = [p.grad for p in params if p.grad is not None]
    if not grads:
        return
    world = dist.get_world_size(group)
    flat = _flatten_dense_tensors(grads)
    flat.mul_(1.0 / world)
    dist.all_reduce(flat, group=group)
    for g, synced in zip(grads, _unflatten_dense_tensors(flat, grads)):
        g.copy_(synced)


def compile(model, x, y, budget=None, loss_fn=None, graph=None, plan=None,
            strategy=None, time_limit=10, classes_last=None, autocast=None, workdir=None,
            process_group=None, device_memory=None, cost_model=None, remat_plan=None,
            progress=None):
    """A Step for training model on batches like (x, y) within budget.

    budget       remat-plan's budget: '8G', '60%' (of the step's peak without
                 recomputation), or bytes; needed unless plan is given
    loss_fn      loss_fn(output, labels) -> scalar (default: cross entropy,
                 classes in the output's last dimension when x holds
                 integers -- token ids -- else in its second)
    graph, plan  a graph and plan written before for this model and batch
                 shape: used instead of planning
    strategy, time_limit
                 remat-plan's --strategy and --time-limit (default 10 s:
                 remat-plan then ends within 22 s; None: its own default)
    autocast     'bf16' or 'fp16': the forward pass runs under torch.autocast
                 (traced so: the step needs no autocast context)
    workdir      where the graph and plan are written (default: a
                 temporary directory, removed)
    process_group  average gradients over it (torch.distributed)
    device_memory  bytes the device may use: a plan predicted to need more
                 is refused (default: device_capacity())
    cost_model   None: trace on real tensors and profile every node, which
                 holds every value of one step at once; 'roofline:NAME':
                 trace on fake tensors and cost nodes by the roofline of
                 accelerator NAME (costmodel.py), which needs only the
                 parameters and the batch: for a step that does not fit
    remat_plan   the remat-plan program (default: remat_plan_program())
    progress     progress(message) hears what compile does

    The model's parameters, buffers and RNG state are left as they were."""
    say = progress or (lambda msg: None)
    if not isinstance(model, nn.Module):
        raise UserError('compile: model is a %s, not an nn.Module' % type(model).__name__)
    if (graph is None) != (plan is None):
        raise UserError('compile: give both graph and plan, or neither')
    if plan is None and budget is None:
        raise UserError('compile: give a budget (or a graph and plan)')
    if autocast not in (None, 'bf16', 'fp16'):
        raise UserError("compile: autocast is 'bf16' or 'fp16', not %r" % (autocast,))
    accelerator = parse_cost_model(cost_model)
    device = x.device.type
    setup_torch(device)
    if classes_last is None:
        classes_last = not x.dtype.is_floating_point
    cls = type(model)
    spec = ModelSpec(module='%s:%s' % (cls.__module__, cls.__qualname__),
                     input_shape=tuple(x.shape), batch=x.shape[0], device=device,
                     input_dtype=str(x.dtype).replace('torch.', ''),
                     class_dim='last' if classes_last else '1', autocast=autocast,
                     shapes_only=accelerator is not None,
                     cost_model=cost_model if accelerator else None)
    problem = make_problem(spec, model, x, y, loss_fn or cross_entropy(classes_last))
    with torch.random.fork_rng(devices=rng_devices(device)):
        joint = trace_graph(problem, say)
        tmp = None
        try:
            if plan is None:
                if workdir is None:
                    tmp = workdir = tempfile.mkdtemp(prefix='remat-')
                graph = os.path.join(workdir, 'graph.xml')
                plan = os.path.join(workdir, 'plan.xml')
                if accelerator:
                    roofline(joint, accelerator, say)
                else:
                    profile(joint, 3, say)
                joint.release()
                write_graph(graph, joint, spec)
                run_remat_plan(graph, plan, budget, strategy, time_limit, remat_plan, say)
                graph_file = GraphFile(graph)
            else:
                joint.release()
                graph_file = GraphFile(graph)
                check_match(joint, graph_file)
            the_plan = Plan(plan)
        finally:
            if tmp is not None:
                shutil.rmtree(tmp, ignore_errors=True)
    if the_plan.attrs.get('graph') not in (None, graph_file.name):
        raise UserError('%s was made for graph %r, %s is graph %r'
                        % (plan, the_plan.attrs['graph'], graph, graph_file.name))
    step = Step(model, problem, joint, the_plan, graph_file, process_group)
    capacity = device_memory or device_capacity(device)
    if step.predicted_peak > capacity:
        raise UserError('the plan needs %d bytes at its peak; %s has %d bytes available'
                        % (step.predicted_peak, device, capacity))
    say('compiled: %d statements, predicted peak %d bytes, predicted cost %.3fx'
        % (len(the_plan.statements), step.predicted_peak, step.predicted_cost))
    return step


def train_side_by_side(problem, joint, plan, graph_file, steps, lr=0.01, momentum=0.9):
    """Trains two copies of problem's model for steps SGD steps on the same
    batches (drawn from the seed) from the same RNG state: one with the
    plan's Step, one with loss.backward(), a step of each in turn (so that
    the machine's load affects both timings alike).  Returns a list of
    (plan loss, ordinary loss, plan seconds, ordinary seconds) per step and
    the two models."""
    spec = problem.spec
    models = [copy.deepcopy(problem.model) for _ in range(2)]
    step = Step(models[0], problem, joint, plan, graph_file)
    opts = [torch.optim.SGD(m.parameters(), lr=lr, momentum=momentum) for m in models]
    gen = torch.Generator().manual_seed(spec.seed + 2)
    with torch.random.fork_rng(devices=rng_devices(spec.device)):
        torch.manual_seed(spec.seed)
        rng = [get_rng(spec.device)] * 2
        record = []
        for _ in range(steps):
            x, y = problem.draw_batch(gen)
            row = [None] * 4
            for side, (model, opt) in enumerate(zip(models, opts)):
                set_rng(spec.device, rng[side])
                opt.zero_grad()
                synchronize(spec.device)
                start = time.perf_counter()
                if side == 0:
                    loss = step(x, y)
                else:
                    with autocast(spec):
                        loss = problem.loss(model(x), y)
                    loss.backward()
                    loss = loss.detach()
                synchronize(spec.device)
                row[2 + side] = time.perf_counter() - start
                row[side] = loss
                opt.step()
                rng[side] = get_rng(spec.device)
            record.append(row)
    return record, models

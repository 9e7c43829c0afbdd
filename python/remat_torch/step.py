"""The problem, a model with its parameters, an input batch and labels, all
drawn from the spec's seed (or given: runtime.compile); the loss; and an
ordinary training step on it (forward, loss, loss.backward()), the
reference a plan must reproduce."""

import copy
import time
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from .device import autocast, rng_devices, synchronize
from .errors import UserError, first_line
from .models import construct, load_object, logits
from .spec import ModelSpec


@dataclass
class Problem:
    """What one training step runs on."""
    spec: ModelSpec
    model: nn.Module
    param_names: list
    params: list               # detached parameter tensors
    buffer_names: list
    buffers: list              # pristine buffer values (never mutated)
    x: torch.Tensor
    y: torch.Tensor
    loss_fn: object = None     # (output, labels) -> scalar loss
    frozen_names: list = ()
    frozen: list = ()          # inputs that take no gradient (detached): frozen
    #                            parameters, tensors kept as plain attributes

    def inputs(self):
        """Fresh graph inputs for one run: params, copies of the buffers
        (a step updates them), input batch, labels, frozen inputs."""
        return (self.params + [b.clone() for b in self.buffers] + [self.x, self.y]
                + list(self.frozen))

    def loss(self, out, y):
        return self.loss_fn(out, y)

    def draw_batch(self, gen):
        """Another input batch and labels like x and y, drawn from the
        torch.Generator gen (on the CPU, then moved)."""
        return (_draw_input(self.spec, gen).to(self.x.device),
                torch.randint(0, self.spec.num_classes, tuple(self.y.shape),
                              generator=gen).to(self.y.device))


def _draw_input(spec, gen):
    if spec.integer_input():
        return torch.randint(0, spec.num_classes, spec.shape(), generator=gen,
                             dtype=spec.dtype())
    return torch.randn(spec.shape(), generator=gen, dtype=spec.dtype())


def cross_entropy(classes_last):
    """The default loss: cross entropy of the model's logits against class
    labels, with the classes in the output's second dimension (N x C [x H
    x W], PyTorch's convention) or in its last (B x T x V: a loss per
    token)."""
    if classes_last:
        def loss(out, y):
            out = logits(out)
            return F.cross_entropy(out.reshape(-1, out.shape[-1]), y.reshape(-1))
    else:
        def loss(out, y):
            return F.cross_entropy(logits(out), y)
    return loss


def loss_function(spec):
    """The loss of spec's step: its --loss function, else cross entropy."""
    if spec.loss:
        fn = load_object(spec.loss, '--loss')
        if not callable(fn):
            raise UserError('--loss %s is not a function' % spec.loss)
        return fn
    return cross_entropy(spec.classes_last())


def label_shape(spec, out):
    """(classes, shape of the labels) for a model output: the output's shape
    without its class dimension."""
    out = logits(out)
    if spec.classes_last():
        if out.dim() < 2:
            raise UserError('model output has shape %s: want batch x ... x classes'
                            % (tuple(out.shape),))
        return out.shape[-1], tuple(out.shape[:-1])
    if out.dim() < 2:
        raise UserError('model output has shape %s: want batch x classes [x ...]'
                        % (tuple(out.shape),))
    return out.shape[1], (out.shape[0],) + tuple(out.shape[2:])


def build_problem(spec):
    """Constructs the model and data from the seed: the same spec always
    gives the same parameters, inputs and labels.  Records the number of
    classes the model outputs in spec.  A model or input this machine
    cannot hold, or PyTorch refuses, is a UserError."""
    try:
        return _build_problem(spec)
    except UserError:
        raise
    except (RuntimeError, MemoryError, OverflowError, TypeError, ValueError) as e:
        raise UserError('cannot build %s with an input of shape %s: %s'
                        % (spec.module or spec.model,
                           'x'.join(map(str, spec.shape())), first_line(e)))


def _build_problem(spec):
    torch.manual_seed(spec.seed)
    model = construct(spec)
    if not isinstance(model, nn.Module):
        raise UserError('%s is not an nn.Module' % (spec.module or spec.model))
    model = model.to(spec.device).train()
    if spec.integer_input() and spec.num_classes is None:
        raise UserError('integer inputs need --num-classes (their values are below it)')
    gen = torch.Generator().manual_seed(spec.seed + 1)
    x = _draw_input(spec, gen).to(spec.device)
    if not spec.shapes_only:
        try:
            probe = copy.deepcopy(model)
        except Exception as e:
            raise UserError('the model cannot be copied (copy.deepcopy: the ordinary '
                            'step it is checked against runs on a copy): %s'
                            % first_line(e))
    with torch.no_grad(), torch.random.fork_rng(devices=rng_devices(spec.device)), \
            autocast(spec):
        try:
            out = _shapes_forward(model, x) if spec.shapes_only else probe(x)
        except UserError:
            raise
        except Exception as e:
            raise UserError('the model does not take a %s input of shape %s: %s'
                            % (spec.dtype(), 'x'.join(map(str, spec.shape())),
                               first_line(e)))
    classes, shape = label_shape(spec, out)
    if logits(out).shape[0] != x.shape[0]:
        raise UserError('model output has shape %s: its first dimension is not '
                        'the batch' % (tuple(logits(out).shape),))
    if spec.num_classes is not None and spec.num_classes != classes and not spec.loss:
        raise UserError('--num-classes %d, but the model outputs %d classes'
                        % (spec.num_classes, classes))
    if spec.num_classes is None:
        spec.num_classes = classes
    y = torch.randint(0, spec.num_classes, shape, generator=gen).to(spec.device)
    return make_problem(spec, model, x, y, loss_function(spec))


def call_with(model, state, x):
    """model(x) with its parameters and buffers replaced by the tensors of
    state (name -> tensor), as torch.nn.utils.stateless.functional_call
    does, where PyTorch 1.13's misses some, so that a trace would read the
    model's own tensors as constants and lose their gradients: a parameter
    tied to another name (named_parameters() gives one; functional_call
    replaces only the names it is given), and the weights of nn.LSTM,
    nn.GRU and nn.RNN, which run on a list of them made when they were
    built (_flat_weights)."""
    from torch.nn.utils import stateless

    first = {}      # id of a tensor -> the first name it was met under
    state = dict(state)
    for mname, m in model.named_modules(remove_duplicate=False):
        for kind in (m._parameters, m._buffers):
            for name, t in kind.items():
                if t is None:
                    continue
                name = mname + '.' + name if mname else name
                seen = first.setdefault(id(t), name)
                if name not in state and seen in state:
                    state[name] = state[seen]
    saved = []
    try:
        for name, m in model.named_modules():
            if isinstance(m, nn.RNNBase) and hasattr(m, '_flat_weights'):
                prefix = name + '.' if name else ''
                saved.append((m, m._flat_weights))
                m._flat_weights = [state.get(prefix + wn, w) for wn, w
                                   in zip(m._flat_weights_names, m._flat_weights)]
        return stateless.functional_call(model, state, (x,))
    finally:
        for m, weights in saved:
            m._flat_weights = weights


def _shapes_forward(model, x):
    """The model's output on x, computed on fake tensors: shapes and
    dtypes only, no memory."""
    from torch._subclasses.fake_tensor import FakeTensorMode

    from . import fakeops
    fakeops.register()
    mode = FakeTensorMode()
    state = {n: mode.from_tensor(t) for n, t in list(model.named_parameters())
             + list(model.named_buffers()) + tensor_attributes(model)}
    fake_x = mode.from_tensor(x)
    with mode:
        return call_with(model, state, fake_x)


def tensor_attributes(model):
    """(name, tensor) of the tensors the model's modules keep as plain
    attributes, not as parameters or buffers (a mask, a table): inputs of
    the step without gradient, like frozen parameters, so that a trace on
    fake tensors gets them as fake ones too (it refused real ones).  One
    made from a trained parameter (it requires grad, or shares its
    storage) would lose that gradient: a UserError."""
    trained = {p.data_ptr() for p in model.parameters() if p.requires_grad and p.numel()}
    found = []
    for mname, m in model.named_modules():
        for name, value in vars(m).items():
            if isinstance(value, torch.Tensor) and not isinstance(value, nn.Parameter):
                name = mname + '.' + name if mname else name
                if value.requires_grad or (value.numel() and value.data_ptr() in trained):
                    raise UserError('the model keeps %s, made from a trained parameter, as '
                                    'a plain attribute: its gradient would be lost; not '
                                    'supported' % name)
                found.append((name, value))
    return found


def tensor_at(model, name):
    """The tensor of model at dotted name (a parameter, buffer or attribute)."""
    for part in name.split('.'):
        model = getattr(model, part)
    return model


def make_problem(spec, model, x, y, loss_fn):
    """The Problem of a model (its trainable parameters, buffers and inputs
    without gradient as they are now) on batch x with labels y."""
    named = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    frozen = [(n, p) for n, p in model.named_parameters() if not p.requires_grad]
    frozen += tensor_attributes(model)
    buffers = list(model.named_buffers())
    return Problem(spec, model, [n for n, _ in named], [p.detach() for _, p in named],
                   [n for n, _ in buffers], [b.detach().clone() for _, b in buffers],
                   x, y, loss_fn, [n for n, _ in frozen], [p.detach() for _, p in frozen])


def eager_step(problem):
    """An ordinary training step (forward, loss, loss.backward()) on a copy
    of the model.  Returns (loss, gradients, buffers after the step,
    seconds the step took)."""
    model = copy.deepcopy(problem.model)
    torch.manual_seed(problem.spec.seed)
    synchronize(problem.spec.device)
    start = time.perf_counter()
    with autocast(problem.spec):
        loss = problem.loss(model(problem.x), problem.y)
    loss.backward()
    synchronize(problem.spec.device)
    seconds = time.perf_counter() - start
    params = dict(model.named_parameters())
    grads = [params[n].grad for n in problem.param_names]
    return loss.detach(), grads, [b for _, b in model.named_buffers()], seconds

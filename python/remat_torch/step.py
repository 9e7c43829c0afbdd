"""The problem, a model with its parameters, an input batch and labels, all
drawn from the spec's seed; and an ordinary training step on it (forward,
cross-entropy loss, loss.backward()), the reference a plan must reproduce."""

import copy
import time
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from .device import rng_devices, synchronize
from .errors import UserError, first_line
from .models import construct, logits
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

    def inputs(self):
        """Fresh graph inputs for one run: params, copies of the buffers
        (a step updates them), input batch, labels."""
        return self.params + [b.clone() for b in self.buffers] + [self.x, self.y]


def build_problem(spec):
    """Constructs the model and data from the seed: the same spec always
    gives the same parameters, inputs and labels.  Records the number of
    classes the model outputs in spec."""
    torch.manual_seed(spec.seed)
    model = construct(spec)
    if not isinstance(model, nn.Module):
        raise UserError('%s is not an nn.Module' % (spec.module or spec.model))
    model = model.to(spec.device).train()
    gen = torch.Generator().manual_seed(spec.seed + 1)
    x = torch.randn(spec.shape(), generator=gen).to(spec.device)
    with torch.no_grad(), torch.random.fork_rng(devices=rng_devices(spec.device)):
        try:
            out = logits(copy.deepcopy(model)(x))
        except UserError:
            raise
        except Exception as e:
            raise UserError('the model does not take input %s: %s'
                            % ('x'.join(map(str, spec.shape())), first_line(e)))
    if out.dim() < 2 or out.shape[0] != x.shape[0]:
        raise UserError('model output has shape %s: want batch x classes [x ...]'
                        % tuple(out.shape))
    classes = out.shape[1]
    if spec.num_classes is not None and spec.num_classes != classes:
        raise UserError('--num-classes %d, but the model outputs %d classes'
                        % (spec.num_classes, classes))
    spec.num_classes = classes
    label_shape = (out.shape[0],) + tuple(out.shape[2:])
    y = torch.randint(0, classes, label_shape, generator=gen).to(spec.device)
    named = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    buffers = list(model.named_buffers())
    return Problem(spec, model, [n for n, _ in named], [p.detach() for _, p in named],
                   [n for n, _ in buffers], [b.detach().clone() for _, b in buffers],
                   x, y)


def loss_of(out, y):
    """The loss of a step: cross entropy of the model's logits."""
    return F.cross_entropy(logits(out), y)


def eager_step(problem):
    """An ordinary training step (forward, loss, loss.backward()) on a copy
    of the model.  Returns (loss, gradients, buffers after the step,
    seconds the step took)."""
    model = copy.deepcopy(problem.model)
    torch.manual_seed(problem.spec.seed)
    synchronize(problem.spec.device)
    start = time.perf_counter()
    loss = loss_of(model(problem.x), problem.y)
    loss.backward()
    synchronize(problem.spec.device)
    seconds = time.perf_counter() - start
    params = dict(model.named_parameters())
    grads = [params[n].grad for n in problem.param_names]
    return loss.detach(), grads, [b for _, b in model.named_buffers()], seconds

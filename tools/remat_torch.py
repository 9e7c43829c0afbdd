"""remat_torch: the PyTorch side of remat-plan, shared by remat-export and
remat-exec.

One training step (forward, cross-entropy loss, backward) of a model is traced
with torch.fx.experimental.proxy_tensor.make_fx into a joint graph of aten
operators, then analysed by running it once on real tensors.  The analysis
turns the fx graph into the dataflow graph of remat-plan(5) and knows how to
run one of its nodes on its own, which is what the executor needs.

Modelling choices (they decide what the memory model predicts, so that the
executor measures the same):

Graph inputs.  The parameters, buffers, input batch and labels are the fx
graph's placeholders.  They are not nodes: they stay resident for the whole
step, and the bytes of their distinct storages are the graph attribute
fixed_mem.

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

Node ids are the fx node names, which make_fx assigns deterministically for a
given model, seed and input shape, so the executor re-traces the model and
finds the same ids.
"""

import argparse
import contextlib
import copy
import heapq
import importlib
import operator
import os
import sys
import time
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils._pytree as pytree
from torch.fx.experimental.proxy_tensor import make_fx
from torch.nn.utils import stateless


class UserError(Exception):
    """A mistake in the command line or the input files: reported as one
    line, without a traceback."""


def _first_line(e):
    return str(e).strip().split('\n')[0]


# ---------------------------------------------------------------------------
# Built-in small test models.

class MLP(nn.Module):
    """A per-pixel MLP: every pixel's channels go through the same stack of
    linear layers (with dropout, to exercise random operators), then the
    pixels are averaged.  Activations outweigh parameters even at batch 2."""

    def __init__(self, num_classes, width=32, depth=6):
        super().__init__()
        layers = [nn.Linear(3, width), nn.ReLU()]
        for i in range(depth - 1):
            layers += [nn.Linear(width, width), nn.ReLU()]
            if i == depth // 2:
                layers.append(nn.Dropout(0.25))
        self.body = nn.Sequential(*layers)
        self.head = nn.Linear(width, num_classes)

    def forward(self, x):
        pixels = x.flatten(2).transpose(1, 2)           # B x (H*W) x 3
        return self.head(self.body(pixels).mean(dim=1))


class SmallCNN(nn.Module):
    """Conv/BatchNorm stem, residual blocks with in-place skip additions and
    in-place ReLUs, a strided convolution and a linear head."""

    def __init__(self, num_classes, width=16, blocks=3):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1, bias=False),
            nn.BatchNorm2d(width), nn.ReLU(inplace=True))
        self.blocks = nn.ModuleList(ResidualBlock(width) for _ in range(blocks))
        self.down = nn.Conv2d(width, 2 * width, 3, stride=2, padding=1)
        self.head = nn.Linear(2 * width, num_classes)

    def forward(self, x):
        x = self.stem(x)
        for block in self.blocks:
            x = block(x)
        x = F.relu(self.down(x))
        return self.head(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


class ResidualBlock(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.conv1 = nn.Conv2d(width, width, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, width, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(width)
        self.relu = nn.ReLU(inplace=True)

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out += x
        return self.relu(out)


class SmallUNet(nn.Module):
    """A U-Net with concatenation skips and a per-pixel classification
    head (input sides must be multiples of 2**levels).  The defaults make
    the small test model; width 64 and 4 levels make the U-Net of
    Ronneberger et al. (with padded convolutions)."""

    def __init__(self, num_classes, width=4, levels=3):
        super().__init__()

        def block(cin, cout):
            return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(cout, cout, 3, padding=1), nn.ReLU())
        widths = [width * 2 ** i for i in range(levels + 1)]
        self.down = nn.ModuleList(block(cin, cout) for cin, cout
                                  in zip([3] + widths[:-2], widths[:-1]))
        self.mid = block(widths[-2], widths[-1])
        self.up = nn.ModuleList(nn.ConvTranspose2d(w2, w1, 2, stride=2)
                                for w1, w2 in zip(widths[:-1], widths[1:]))
        self.dec = nn.ModuleList(block(2 * w, w) for w in widths[:-1])
        self.head = nn.Conv2d(width, num_classes, 1)

    def forward(self, x):
        skips = []
        for block in self.down:
            x = block(x)
            skips.append(x)
            x = F.max_pool2d(x, 2)
        x = self.mid(x)
        for up, dec, skip in reversed(list(zip(self.up, self.dec, skips))):
            x = dec(torch.cat([up(x), skip], dim=1))
        return self.head(x)


SMALL_MODELS = ('mlp', 'smallcnn', 'smallunet')
BUILTIN_MODELS = SMALL_MODELS + ('unet',)


def _small_model(name, size, num_classes):
    if name == 'mlp':
        return MLP(num_classes)
    if name == 'smallcnn':
        return SmallCNN(num_classes)
    if name == 'unet':          # the U-Net of Ronneberger et al., padded
        if size % 16:
            raise UserError('unet needs --size to be a multiple of 16')
        return SmallUNet(num_classes, width=64, levels=4)
    if size % 8:
        raise UserError('smallunet needs --size to be a multiple of 8')
    return SmallUNet(num_classes)


# ---------------------------------------------------------------------------
# Model options, shared by both tools.

@dataclass
class ModelSpec:
    """Everything that determines the traced step (and so the graph)."""
    model: str = None          # torchvision or built-in model name
    module: str = None         # 'pkg.mod:Class', instead of model
    batch: int = 2
    size: int = 32
    input_shape: tuple = None  # with module: the full input shape
    num_classes: int = None
    seed: int = 0
    device: str = 'cpu'
    coarsen: int = None        # module depth of the layers, None: operators

    def shape(self):
        if self.input_shape:
            return self.input_shape
        return (self.batch, 3, self.size, self.size)

    def name(self):
        """Short name for the graph: model, batch and input size."""
        if self.module:
            base = self.module.rsplit(':', 1)[-1]
            name = '%s-%s' % (base, 'x'.join(map(str, self.shape())))
        else:
            name = '%s-b%d-s%d' % (self.model, self.batch, self.size)
        return name + ('-c%d' % self.coarsen if self.coarsen else '')

    def attributes(self):
        """Graph attributes recording how the graph was made."""
        attrs = {'model': self.module or self.model,
                 'input_shape': ','.join(map(str, self.shape())),
                 'seed': self.seed, 'device': self.device,
                 'torch_version': torch.__version__}
        if not self.module:
            attrs['batch'] = self.batch
            attrs['size'] = self.size
        if self.num_classes is not None:
            attrs['num_classes'] = self.num_classes
        if self.coarsen:
            attrs['coarsen'] = self.coarsen
        return attrs


def _positive(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError('%r is not a positive integer' % text)
    return value


def _shape(text):
    try:
        dims = tuple(int(d) for d in text.split(','))
    except ValueError:
        dims = ()
    if len(dims) < 2 or min(dims) <= 0:
        raise argparse.ArgumentTypeError(
            '%r is not a shape like 2,3,32,32 (batch first)' % text)
    return dims


class ArgumentParser(argparse.ArgumentParser):
    """Command-line mistakes are reported in one line: 'PROG: message'."""

    def error(self, message):
        self.exit(2, '%s: %s (see --help)\n' % (self.prog, message))


def add_model_options(parser, description=None):
    g = parser.add_argument_group('model', description)
    g.add_argument('--model', metavar='NAME',
                   help='torchvision model (resnet50, vgg16, vit_b_16, ...) or a '
                        'built-in model: ' + ', '.join(BUILTIN_MODELS))
    g.add_argument('--module', metavar='PKG.MOD:CLASS',
                   help='a model class of your own, constructed with no '
                        'arguments (needs --input-shape and --num-classes)')
    g.add_argument('--batch', type=_positive, metavar='B',
                   help='batch size (default 2)')
    g.add_argument('--size', type=_positive, metavar='S',
                   help='input height and width: input is B x 3 x S x S '
                        '(default 32)')
    g.add_argument('--input-shape', type=_shape, metavar='SHAPE',
                   help='full input shape with --module, e.g. 2,3,32,32')
    g.add_argument('--num-classes', type=_positive, metavar='K',
                   help='number of classes (default: 10 for the built-in '
                        "models, the torchvision model's own)")
    g.add_argument('--seed', type=int, metavar='N',
                   help='seed for parameters, inputs, labels and dropout '
                        '(default 0)')
    g.add_argument('--device', choices=('cpu', 'cuda'),
                   help='device to trace, profile and run on (default cpu)')
    g.add_argument('--coarsen', type=_positive, metavar='DEPTH',
                   help='merge the operators of each layer into one node: a '
                        'layer is a module at depth DEPTH of the module tree '
                        '(1: children of the model, 2: their children, ...); '
                        'default: one node per operator')


def spec_from_args(args, recorded=None):
    """The ModelSpec of the command line.  recorded (graph attributes written
    by remat-export) supplies what the command line leaves out."""
    rec = recorded or {}
    model, module = args.model, args.module
    if model is None and module is None and rec.get('model'):
        if ':' in rec['model']:
            module = rec['model']
        else:
            model = rec['model']
    if (model is None) == (module is None):
        raise UserError('give exactly one of --model NAME and --module PKG.MOD:CLASS')

    def pick(value, key, convert, default):
        if value is not None:
            return value
        if key in rec:
            try:
                return convert(rec[key])
            except (ValueError, argparse.ArgumentTypeError):
                raise UserError('bad %s %r recorded in the graph' % (key, rec[key]))
        return default
    spec = ModelSpec(model=model, module=module,
                     seed=pick(args.seed, 'seed', int, 0),
                     device=pick(args.device, 'device', str, 'cpu'),
                     num_classes=pick(args.num_classes, 'num_classes', int, None),
                     coarsen=pick(args.coarsen, 'coarsen', _positive, None))
    if module:
        if args.batch or args.size:
            raise UserError('--module takes --input-shape, not --batch/--size')
        spec.input_shape = pick(args.input_shape, 'input_shape', _shape, None)
        if spec.input_shape is None or spec.num_classes is None:
            raise UserError('--module needs --input-shape and --num-classes')
        spec.batch = spec.input_shape[0]
    else:
        if args.input_shape:
            raise UserError('--input-shape goes with --module; use --batch and --size')
        spec.batch = pick(args.batch, 'batch', int, 2)
        spec.size = pick(args.size, 'size', int, 32)
    if spec.device == 'cuda' and not torch.cuda.is_available():
        raise UserError('--device cuda: no CUDA device is available')
    return spec


def setup_torch(device):
    """Deterministic kernels, so that a plan's gradients can be compared
    bitwise with an ordinary step's (cuBLAS reads its setting at start)."""
    if device == 'cuda':
        os.environ.setdefault('CUBLAS_WORKSPACE_CONFIG', ':4096:8')
        torch.backends.cudnn.benchmark = False
        torch.backends.cudnn.deterministic = True
    torch.use_deterministic_algorithms(True, warn_only=True)


# ---------------------------------------------------------------------------
# The problem: a model with its parameters, an input batch and labels.

def _construct(spec):
    if spec.module:
        modname, _, clsname = spec.module.partition(':')
        if not modname or not clsname:
            raise UserError('--module wants PKG.MOD:CLASS, not %r' % spec.module)
        if os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())
        try:
            cls = getattr(importlib.import_module(modname), clsname)
        except (ImportError, AttributeError) as e:
            raise UserError('cannot load %s: %s' % (spec.module, e))
        try:
            return cls()
        except Exception as e:
            raise UserError('%s() failed: %s' % (spec.module, e))
    if spec.model in BUILTIN_MODELS:
        if spec.num_classes is None:
            spec.num_classes = 10
        return _small_model(spec.model, spec.size, spec.num_classes)
    import torchvision
    if spec.model not in torchvision.models.list_models(module=torchvision.models):
        raise UserError('unknown model %r: not a torchvision classification '
                        'model nor one of %s' % (spec.model, ', '.join(BUILTIN_MODELS)))
    kwargs = {'weights': None}
    if spec.num_classes is not None:
        kwargs['num_classes'] = spec.num_classes
    if spec.model.startswith('vit_'):
        kwargs['image_size'] = spec.size    # position embeddings depend on it
    if spec.model in ('inception_v3', 'googlenet'):
        kwargs['aux_logits'] = False
        kwargs['init_weights'] = True
    return torchvision.models.get_model(spec.model, **kwargs)


def _logits(out):
    """Models returning a named tuple (InceptionOutputs, ...) give logits."""
    if isinstance(out, torch.Tensor):
        return out
    if hasattr(out, 'logits'):
        return out.logits
    raise UserError('the model returns %s, not a tensor of logits' % type(out).__name__)


@dataclass
class Problem:
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
    gives the same parameters, inputs and labels."""
    torch.manual_seed(spec.seed)
    model = _construct(spec)
    if not isinstance(model, nn.Module):
        raise UserError('%s is not an nn.Module' % (spec.module or spec.model))
    model = model.to(spec.device).train()
    gen = torch.Generator().manual_seed(spec.seed + 1)
    x = torch.randn(spec.shape(), generator=gen).to(spec.device)
    with torch.no_grad(), torch.random.fork_rng(devices=_rng_devices(spec.device)):
        try:
            out = _logits(copy.deepcopy(model)(x))
        except UserError:
            raise
        except Exception as e:
            raise UserError('the model does not take input %s: %s'
                            % ('x'.join(map(str, spec.shape())), _first_line(e)))
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


def _rng_devices(device):
    return [torch.cuda.current_device()] if device == 'cuda' else []


def _get_rng(device):
    return (torch.get_rng_state(),
            torch.cuda.get_rng_state() if device == 'cuda' else None)


def _set_rng(device, state):
    torch.set_rng_state(state[0])
    if device == 'cuda':
        torch.cuda.set_rng_state(state[1])


def synchronize(device):
    if device == 'cuda':
        torch.cuda.synchronize()


def eager_step(problem):
    """An ordinary training step (forward, loss, loss.backward()) on a copy
    of the model.  Returns (loss, gradients, buffers after the step,
    seconds the step took)."""
    model = copy.deepcopy(problem.model)
    torch.manual_seed(problem.spec.seed)
    synchronize(problem.spec.device)
    start = time.perf_counter()
    loss = F.cross_entropy(_logits(model(problem.x)), problem.y)
    loss.backward()
    synchronize(problem.spec.device)
    seconds = time.perf_counter() - start
    params = dict(model.named_parameters())
    grads = [params[n].grad for n in problem.param_names]
    return loss.detach(), grads, [b for _, b in model.named_buffers()], seconds


def trace_step(problem):
    """make_fx of one step (params, buffers, x, y) -> [loss, *grads]."""
    model, pnames, bnames = problem.model, problem.param_names, problem.buffer_names

    def step(params, buffers, x, y):
        state = dict(zip(pnames, params))
        state.update(zip(bnames, buffers))
        out = _logits(stateless.functional_call(model, state, (x,)))
        loss = F.cross_entropy(out, y)
        return [loss] + list(torch.autograd.grad(loss, params, allow_unused=True))

    params = [p.clone().requires_grad_() for p in problem.params]
    buffers = [b.clone() for b in problem.buffers]
    torch.manual_seed(problem.spec.seed)
    try:
        with _module_labels(model):
            return make_fx(step)(params, buffers, problem.x, problem.y)
    except UserError:
        raise
    except Exception as e:
        raise UserError('tracing the training step failed: %s' % _first_line(e))


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


# ---------------------------------------------------------------------------
# Storages.

def storage_key(t):
    """Identity of a tensor's storage, None when it has no bytes."""
    s = t.storage()
    if s.nbytes() == 0:
        return None
    return (t.device.type, t.device.index, s.data_ptr())


def storages(value):
    """{storage key: bytes} of the tensors in a value (tensor, tuple, list;
    None and non-tensors hold no storage)."""
    found = {}
    for t in pytree.tree_flatten(value)[0]:
        if isinstance(t, torch.Tensor):
            key = storage_key(t)
            if key is not None:
                found[key] = t.storage().nbytes()
    return found


# ---------------------------------------------------------------------------
# The joint graph.

def _is_random(op):
    return (isinstance(op, torch._ops.OpOverload)
            and torch.Tag.nondeterministic_seeded in op.tags)


def _written_nodes(n):
    """The fx nodes bound to the arguments that n's schema says it writes."""
    if not isinstance(n.target, torch._ops.OpOverload):
        return []
    found = []
    for i, arg in enumerate(n.target._schema.arguments):
        if arg.alias_info is not None and arg.alias_info.is_write:
            value = n.args[i] if i < len(n.args) else n.kwargs.get(arg.name)
            found += [a for a in pytree.tree_flatten(value)[0] if isinstance(a, torch.fx.Node)]
    return found


def _op_name(target):
    return 'getitem' if target is operator.getitem else str(target)


def _reach(start, edges):
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
        self.preds = set()          # OpNodes read; a list in order once built
        self.held = {}              # member -> None (all outputs) or the
        #                             indices of the outputs a register keeps
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
        return '+'.join(_op_name(m.target) for m in self.members)

    @property
    def recompute(self):
        return not (self.rng_states or self.updates_input)


class JointGraph:
    """The traced step as remat-plan's dataflow graph, plus what is needed to
    compute any of its nodes again.

    Building it runs the step once on real tensors, keeping every value (for
    the alias analysis and for profiling); release() drops them."""

    def __init__(self, problem, progress=None):
        self.problem = problem
        self.device = problem.spec.device
        say = progress or (lambda msg: None)
        say('tracing one training step of %s' % problem.spec.name())
        self.gm = trace_step(problem)
        graph = self.gm.graph
        self.placeholders = [n for n in graph.nodes if n.op == 'placeholder']
        self._separate_results()
        calls = [n for n in graph.nodes if n.op == 'call_function']
        say('analysing %d operators' % len(calls))
        self.position = {n: i for i, n in enumerate(calls)}
        self.env = {}
        self.kind = {}      # fx node -> 'input', 'owner', 'fused', 'view' or 'dead'
        self.group = {}     # owner or fused fx node -> the OpNode it runs in
        self.groups = {}    # the OpNodes (an ordered set)
        self._sources = {}
        self._run_analysis(calls)
        self._keep()
        self._hold()
        self._order()
        self._classify()
        if problem.spec.coarsen:
            before = len(self.nodes)
            self._coarsen(problem.spec.coarsen)
            say('coarsened %d operator nodes to %d at module depth %d'
                % (before, len(self.nodes), problem.spec.coarsen))
        # The step as traced, run in order: what every plan must reproduce.
        self.traced_results = self.results(lambda g: self.env, self.env)
        self.traced_buffers = [self.env[ph] for ph in self.buffer_placeholders()]

    def buffer_placeholders(self):
        first = len(self.problem.params)
        return self.placeholders[first:first + len(self.problem.buffers)]

    def _out_node(self):
        return [n for n in self.gm.graph.nodes if n.op == 'output'][0]

    @property
    def returns(self):
        """The fx nodes (or constants) of the step's results: loss, grads."""
        return pytree.tree_flatten(self._out_node().args[0])[0]

    def _separate_results(self):
        """A result (a gradient) that a multi-output operator returns beside
        values other operators read is copied into a node of its own
        (aten.clone), so that a plan can free those values early instead of
        holding them until the end of the step with the result."""
        graph, out = self.gm.graph, self._out_node()
        results = set(self.returns)
        copies = {}
        for n in list(graph.nodes):
            items = [u for u in n.users if u.target is operator.getitem]
            if any(set(g.users) - {out} for g in items):
                for g in items:
                    if g in results:
                        with graph.inserting_after(g):
                            copies[g] = graph.call_function(torch.ops.aten.clone.default, (g,))
        out.args = torch.fx.node.map_arg(out.args, lambda a: copies.get(a, a))

    # -- analysis run --------------------------------------------------------

    def _run_analysis(self, calls):
        inputs = self.problem.inputs()
        if len(inputs) != len(self.placeholders):
            raise UserError('internal: %d graph inputs for %d placeholders'
                            % (len(inputs), len(self.placeholders)))
        owner = {}      # storage key -> fx node owning it (placeholder or owner)
        readers = {}    # storage key -> owner and fused nodes that read it
        self.fixed = {}  # placeholder storages: key -> bytes
        for ph, value in zip(self.placeholders, inputs):
            self.env[ph] = value
            self.kind[ph] = 'input'
            for key, nbytes in storages(value).items():
                owner.setdefault(key, ph)
                self.fixed[key] = nbytes
        self.fixed_mem = sum(self.fixed.values())
        torch.manual_seed(self.problem.spec.seed)
        with torch.no_grad():
            for n in calls:
                group = None
                mutated = {k for a in _written_nodes(n) for k in storages(self.env[a])}
                if mutated:
                    roots = {owner[k] for k in mutated}
                    kinds = {self.kind[r] for r in roots}
                    if kinds == {'input'}:
                        if n.users:
                            raise UserError('%s updates a graph input in place and its '
                                            'result is read: not supported' % n.name)
                        group = self._new_group(n)
                        group.updates_input = True
                    elif 'input' in kinds:
                        raise UserError('%s writes a graph input and an intermediate '
                                        'value: not supported' % n.name)
                    else:
                        group = self._fuse(n, {self.group[r] for r in roots}, mutated, readers)
                args, kwargs = self._materialize(n)
                watched = {} if mutated else {
                    a: self.env[a].clone() for a in n.all_input_nodes
                    if isinstance(self.env[a], torch.Tensor)
                    and storage_key(self.env[a]) in self.fixed}
                rng = _get_rng(self.device) if _is_random(n.target) else None
                try:
                    value = n.target(*args, **kwargs)
                except Exception as e:
                    raise UserError('running %s (%s) failed: %s'
                                    % (n.name, _op_name(n.target), _first_line(e)))
                hidden = {a for a, before in watched.items()
                          if not torch.equal(before, self.env[a])}
                self.env[n] = value
                if group is None:
                    if self._is_view(n, value, owner):
                        continue
                    group = self._new_group(n)
                    for key in storages(value):
                        owner[key] = n
                if rng is not None:
                    group.rng_states[n] = rng
                if hidden:
                    group.hidden_writes[n] = hidden
                group.preds.update(self.group[src] for src, _ in self._reads(n))
                group.preds.discard(group)
                for a in n.all_input_nodes:
                    for key in storages(self.env[a]):
                        readers.setdefault(key, set()).add(n)

    def _new_group(self, n):
        self.kind[n] = 'owner'
        group = self.group[n] = OpNode(n, self.position[n])
        self.groups[group] = None
        return group

    def _is_view(self, n, value, owner):
        """Whether n's outputs all alias existing storage; refuses a mix."""
        if isinstance(value, (tuple, list)):
            if any(isinstance(v, (tuple, list)) for v in value):
                raise UserError('%s returns nested sequences: not supported' % n.name)
        elif value is not None and not isinstance(value, (torch.Tensor, int, float, bool)):
            raise UserError('%s returns %s: not supported' % (n.name, type(value).__name__))
        aliased = [k in owner for k in storages(value)]
        if any(aliased) and not all(aliased):
            raise UserError('%s (%s) returns both fresh and aliased storage: '
                            'not supported' % (n.name, _op_name(n.target)))
        if aliased and all(aliased):
            self.kind[n] = 'view'
            return True
        return False

    def _fuse(self, n, roots, mutated, readers):
        """The node in which in-place n, writing intermediate storage, runs:
        the node owning that storage, merged with every node that read the
        storage before n wrote it (they must run before n, with n) and with
        every node between them, so that the graph stays acyclic."""
        home = min(roots, key=lambda g: g.position)
        merge = set(roots)
        merge.update(self.group[r] for k in mutated for r in readers.get(k, ()))
        merge.update(g for g in (self.group[src] for src, _ in self._reads(n))
                     if home in _reach([g], lambda x: x.preds))
        if merge != {home}:
            users = {}
            for g in self.groups:
                for p in g.preds:
                    users.setdefault(p, []).append(g)
            between = (_reach(merge, lambda x: users.get(x, ()))
                       & _reach(merge, lambda x: x.preds))
            self._merge(home, between)
        self.kind[n] = 'fused'
        self.group[n] = home
        home.members.append(n)
        return home

    def _merge(self, home, groups):
        for g in groups - {home}:
            for m in g.members:
                self.group[m] = home
            home.members += g.members
            home.preds |= g.preds
            home.rng_states.update(g.rng_states)
            home.hidden_writes.update(g.hidden_writes)
            home.position = min(home.position, g.position)
            del self.groups[g]
        home.members.sort(key=self.position.get)
        home.preds -= groups
        for g in self.groups:
            if g is not home and g.preds & groups:
                g.preds = (g.preds - groups) | {home}

    # -- graph structure -----------------------------------------------------

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
                found = self.sources(_written_nodes(n)[0])
            elif n.target is operator.getitem and self.kind[n.args[0]] == 'owner':
                found = frozenset([(n.args[0], n.args[1])])
            else:
                found = frozenset().union(*(self.sources(a) for a in n.all_input_nodes))
            self._sources[n] = found
        return self._sources[n]

    def _reads(self, n):
        return frozenset().union(*(self.sources(a) for a in n.all_input_nodes))

    def _result_sources(self):
        return frozenset().union(*(self.sources(r) for r in self.returns
                                   if isinstance(r, torch.fx.Node)))

    def _keep(self):
        """Drops dead nodes."""
        live = _reach({self.group[src] for src, _ in self._result_sources()}
                      | {g for g in self.groups if g.updates_input or g.rng_states},
                      lambda g: g.preds)
        for g in list(self.groups):
            if g not in live:
                del self.groups[g]
                for m in g.members:
                    self.kind[m] = 'dead'

    def _hold(self):
        """Decides what the register of each node holds (the outputs that
        other nodes or the step's results read), its mem and workspace."""
        result = self._result_sources()
        used = {}
        for src, index in result:
            used.setdefault(src, set()).add(index)
        for g in self.groups:
            for m in g.members:
                for src, index in self._reads(m):
                    if self.group[src] is not g:
                        used.setdefault(src, set()).add(index)
        for g in self.groups:
            g.output = g.updates_input or any(self.group[src] is g for src, _ in result)
            g.held = {}
            for m in g.members:
                if m in used:
                    value = self.env[m]
                    g.held[m] = (sorted(used[m]) if isinstance(value, (tuple, list))
                                 and None not in used[m] else None)
            kept = storages(list(self.held(g, self.env).values()))
            g.mem = sum(b for k, b in kept.items() if k not in self.fixed)
            # While the node computes, a value lives from its operator to
            # the last operator of the node reading it (to the end if the
            # register keeps it); only owners hold storage of their own.
            step = {m: i for i, m in enumerate(g.members)}
            last = dict(step)
            for i, m in enumerate(g.members):
                for src, _ in self._reads(m):
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
        for g in _reach(loss, lambda g: g.preds):
            g.forward = True

    # -- coarsening ------------------------------------------------------------

    def _placeholders_read(self, n):
        """The graph inputs fx node n reads, directly or through views."""
        found = []
        for a in n.all_input_nodes:
            if self.kind[a] == 'input':
                found.append(a)
            elif self.kind[a] == 'view':
                found += self._placeholders_read(a)
        return found

    def _labels(self, depth):
        """The layer of each node: the module path, cut to depth components,
        of the module that ran its first operator ('f:' prefix); for an
        operator traced outside any module (the backward pass, the loss) the
        module whose parameter it reads, else the layer of the latest
        forward node it reads, else that of its latest predecessor ('b:')."""
        def cut(path):
            return '.'.join(path.split('.')[:depth])
        n_params = len(self.problem.params)
        param_layer = {ph: cut(name.rpartition('.')[0]) for ph, name
                       in zip(self.placeholders[:n_params], self.problem.param_names)}
        label = {}
        for g in self.nodes:
            mods = [m.meta['remat_module'] for m in g.members if 'remat_module' in m.meta]
            if mods:
                label[g] = 'f:' + cut(mods[0])
                continue
            if g.forward:            # the loss
                label[g] = 'f:'
                continue
            params = [param_layer[ph] for m in g.members
                      for ph in self._placeholders_read(m) if ph in param_layer]
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

    def _coarsen(self, depth):
        """Merges the operator nodes of each layer (see _labels) into one
        node, for graphs small enough for the MILP.  Runs of consecutive
        nodes (in the topological order) with the same layer are merged,
        which keeps the graph acyclic; a node that cannot be recomputed or
        holds a result read by other nodes stays on its own (merged, it would
        make the whole layer unrecomputable or resident to the end), and the
        results nobody reads (gradients, statistics updates) of a layer are
        merged into one node of their own.  Inside a merged node every value
        an operator produces lives until the node ends; values not read
        outside it are its workspace."""
        label = self._labels(depth)
        users = {g: 0 for g in self.nodes}
        for g in self.nodes:
            for p in g.preds:
                users[p] += 1
        parts, sinks, run, run_label = [], {}, None, None
        for g in self.nodes:
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
        self.groups = {}
        for part in parts:
            home = part[0]
            preds = {home_of[p] for g in part for p in g.preds} - {home}
            for g in part[1:]:
                for m in g.members:
                    self.group[m] = home
                home.members += g.members
                home.rng_states.update(g.rng_states)
                home.hidden_writes.update(g.hidden_writes)
                home.updates_input = home.updates_input or g.updates_input
                home.position = min(home.position, g.position)
            home.members.sort(key=self.position.get)
            home.preds = preds
            self.groups[home] = None
        self._hold()
        self._order()
        self._classify()

    # -- running nodes ---------------------------------------------------------

    def _materialize(self, n, fetch=None, inputs=None, scratch=()):
        """The arguments of fx node n.  Without fetch: from the analysis run.
        With fetch(OpNode) -> its held values: owners from the registers,
        views rebuilt from them, graph inputs from inputs; args in scratch
        are given as copies."""
        def value(a):
            if fetch is None:
                v = self.env[a]
            else:
                v = self.value_of(a, fetch, inputs)
            return v.clone() if a in scratch else v
        return (torch.fx.node.map_arg(n.args, value),
                torch.fx.node.map_arg(n.kwargs, value))

    def value_of(self, n, fetch, inputs):
        """The value of fx node n, from graph inputs and held values."""
        kind = self.kind[n]
        if kind == 'input':
            return inputs[n]
        if kind == 'owner':
            return fetch(self.group[n])[n]
        if kind == 'fused':     # an in-place operator returns what it wrote
            return self.value_of(_written_nodes(n)[0], fetch, inputs)
        args, kwargs = self._materialize(n, fetch, inputs)
        return n.target(*args, **kwargs)

    def run_inputs(self):
        """Fresh graph inputs for a run, keyed by placeholder."""
        return dict(zip(self.placeholders, self.problem.inputs()))

    def compute(self, group, fetch, inputs, again, exclude=None):
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
                _set_rng(self.device, group.rng_states[m])
            scratch = ()
            if again:
                scratch = group.hidden_writes.get(m, set())
                if group.updates_input:
                    scratch = set(_written_nodes(m))
            args, kwargs = self._materialize(m, fetch_here, inputs, scratch)
            values[m] = m.target(*args, **kwargs)
            del args, kwargs
            if exclude is not None:
                peak = max(peak, sum(b for k, b in storages(list(values.values())).items()
                                     if k not in exclude))
            for d in group.drop_after.get(i, ()):
                del values[d]
        return values, peak

    @staticmethod
    def held(group, values):
        """What a register keeps of a node's values: {member: value}."""
        return {m: values[m] if kept is None else
                tuple(v if i in kept else None for i, v in enumerate(values[m]))
                for m, kept in group.held.items()}

    def results(self, fetch, inputs):
        """The step's results: [loss, *grads]."""
        return [self.value_of(r, fetch, inputs) if isinstance(r, torch.fx.Node) else r
                for r in self.returns]

    # -- profiling -----------------------------------------------------------

    def profile(self, repeat, progress=None):
        """cost = best of repeat runs of each node alone on its real inputs
        (from the analysis run), in milliseconds."""
        say = progress or (lambda msg: None)
        say('profiling %d nodes on %s (best of %d)' % (len(self.nodes), self.device, repeat))
        inputs = {ph: self.env[ph] for ph in self.placeholders}
        with torch.no_grad(), torch.random.fork_rng(devices=_rng_devices(self.device)):
            for group in self.nodes:
                best = float('inf')
                for _ in range(repeat):
                    synchronize(self.device)
                    start = time.perf_counter()
                    self.compute(group, lambda g: self.env, inputs, again=True)[0]
                    synchronize(self.device)
                    best = min(best, time.perf_counter() - start)
                group.cost = best * 1e3

    def release(self):
        """Drops the analysis run's values."""
        self.env = {}

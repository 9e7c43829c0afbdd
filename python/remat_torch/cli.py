"""The command line shared by remat-export, remat-exec and remat-maxbatch:
one-line usage errors, the model options, and the ModelSpec they give
(completed from the options a graph file records).  It imports no PyTorch
where the options need none, so that the tools report a mistake on the
command line before loading it (a second or two)."""

import argparse
import contextlib
import decimal
import importlib
import importlib.util
import os
import re
import signal
import sys

from .errors import UsageError, UserError
from .spec import BUILTIN_MODELS, ModelSpec

INPUT_DTYPES = ('float32', 'float64', 'int64', 'int32')


class ArgumentParser(argparse.ArgumentParser):
    """Command-line mistakes are reported in one line: 'PROG: message'."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # An argument such as -4M is a (bad) value, not an option: argparse
        # takes only plain negative numbers for values, and said "expected
        # one argument" of --budget -4M.  (No option here looks like one.)
        self._negative_number_matcher = re.compile(r'^-\.?\d')

    def error(self, message):
        self.exit(2, '%s: %s (see --help)\n' % (self.prog, message))


# Set by require_pytorch(): the program's name and the status it ends with
# where PyTorch cannot be used.
_PROG = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else 'remat'
_NO_TORCH_STATUS = 1


def require_pytorch(prog, status):
    """Ends the program with one line and STATUS unless PyTorch is installed
    for this Python (found, not loaded: that takes a second or two), and sets
    what loading_pytorch() says and exits with where it is there but does
    not load."""
    global _PROG, _NO_TORCH_STATUS
    _PROG, _NO_TORCH_STATUS = prog, status
    if importlib.util.find_spec('torch') is None:
        sys.stderr.write('%s: PyTorch is not installed for %s (Debian: apt-get '
                         'install python3-torch python3-torchvision)\n'
                         % (prog, sys.executable))
        sys.exit(status)


@contextlib.contextmanager
def loading_pytorch():
    """For importing PyTorch and the modules that use it (a second or two).
    PyTorch itself is imported first: where it is installed but does not
    load (a shared library missing, a build for another Python), the
    program ends with one line naming the cause and require_pytorch()'s
    status, not a traceback from inside torch.  Ctrl-C meanwhile ends the
    program quietly with status 130, as it does before and after (not
    where SIGINT is ignored: nohup, &)."""
    quiet = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if quiet:
        signal.signal(signal.SIGINT, lambda signum, frame: os._exit(130))
    try:
        try:
            importlib.import_module('torch')    # the modules loaded next use it
        except Exception as e:      # anything torch's own import raises
            why = (str(e).strip().splitlines() or [''])[0]
            sys.stderr.write('%s: PyTorch is installed for %s but does not load: '
                             '%s%s\n' % (_PROG, sys.executable, type(e).__name__,
                                         ': ' + why if why else ''))
            sys.exit(_NO_TORCH_STATUS)
        yield
    finally:
        if quiet:
            signal.signal(signal.SIGINT, signal.default_int_handler)


def _positive(text):
    """argparse type: an integer above 0 (and below 2^31: batches, sizes,
    classes and depths past that cannot be built)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0 or value >= 2 ** 31:
        raise argparse.ArgumentTypeError('%r is not a positive integer below '
                                         '2^31' % text)
    return value


def _seed(text):
    """argparse type: a seed, 0 to 2^63 - 2 (PyTorch's generators take 64
    bits, and the inputs are drawn with seed + 1)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value < 2 ** 63 - 1:
        raise argparse.ArgumentTypeError('%r is not a seed from 0 to 2^63 - 2'
                                         % text)
    return value


# remat-plan(1)'s units of a budget in bytes, upper case.
_UNITS = {'': 1, 'B': 1, 'K': 1 << 10, 'KIB': 1 << 10, 'KB': 10 ** 3,
          'M': 1 << 20, 'MIB': 1 << 20, 'MB': 10 ** 6,
          'G': 1 << 30, 'GIB': 1 << 30, 'GB': 10 ** 9,
          'T': 1 << 40, 'TIB': 1 << 40, 'TB': 10 ** 12}
_AMOUNT = re.compile(r'(\d+\.?\d*|\.\d+)([eE][+-]?\d{1,4})?([A-Za-z]*)', re.ASCII)


def byte_count(text):
    """argparse type: a number of bytes as remat-plan takes a budget (512M,
    16G, 2GB, 1.5G; K, M, G, T are powers of 1024, KB, MB, GB, TB of 1000),
    rounded down, from 1 to 2^62; a plain number must be whole."""
    m = _AMOUNT.fullmatch(text.strip())
    if m is None or m.group(3).upper() not in _UNITS:
        raise argparse.ArgumentTypeError(
            '%r is not a number of bytes (such as 8000000, 512M or 16G)' % text)
    amount = decimal.Decimal(m.group(1) + (m.group(2) or ''))
    scale = _UNITS[m.group(3).upper()]
    if scale == 1 and amount >= 1 and amount != amount.to_integral_value():
        raise argparse.ArgumentTypeError('%r is not a whole number of bytes'
                                         % text)
    value = int(amount * scale)
    if value < 1:
        raise argparse.ArgumentTypeError('%r must be at least 1 byte' % text)
    if value > 1 << 62:
        raise argparse.ArgumentTypeError('%r is too large' % text)
    return value


def _shape(text):
    """argparse type: a tensor shape such as 2,3,32,32."""
    try:
        dims = tuple(int(d) for d in text.split(','))
    except ValueError:
        dims = ()
    if len(dims) < 2 or min(dims) <= 0:
        raise argparse.ArgumentTypeError(
            '%r is not a shape like 2,3,32,32 or 4,128 (batch first)' % text)
    return dims


def add_model_options(parser, description=None, batch=True):
    """The options that make a ModelSpec (see spec_from_args), as a group;
    batch=False leaves --batch out of the help (a tool that searches it
    refuses it)."""
    g = parser.add_argument_group('model', description)
    g.add_argument('--model', metavar='NAME',
                   help='torchvision classification, segmentation or video '
                        'model (resnet50, vit_b_16, fcn_resnet50, r3d_18, ...) '
                        'or a built-in model: ' + ', '.join(BUILTIN_MODELS))
    g.add_argument('--module', metavar='PKG.MOD:CLASS',
                   help='a model class of your own, constructed with no '
                        'arguments (needs --input-shape and --num-classes)')
    g.add_argument('--batch', type=_positive, metavar='B',
                   help='batch size (default 2)' if batch else argparse.SUPPRESS)
    g.add_argument('--size', type=_positive, metavar='S',
                   help='input height and width: input is B x 3 x S x S '
                        '(default 32)')
    g.add_argument('--input-shape', type=_shape, metavar='SHAPE',
                   help='full input shape, batch first: with --module (e.g. '
                        '2,3,32,32), or with a torchvision --model instead of '
                        '--batch and --size (B,3,H,W: images that are not '
                        'square; B,3,T,H,W: a video model)')
    g.add_argument('--num-classes', type=_positive, metavar='K',
                   help='number of classes (default: 10 for the built-in '
                        "models, 64 for gpt (its vocabulary), the torchvision "
                        "model's own)")
    g.add_argument('--seed', type=_seed, metavar='N',
                   help='seed for parameters, inputs, labels and dropout '
                        '(default 0)')
    g.add_argument('--device', choices=('cpu', 'cuda'),
                   help='device to trace, profile and run on (default cpu)')
    g.add_argument('--input-dtype', choices=INPUT_DTYPES,
                   help='dtype of the input batch (default float32; int64 for '
                        'gpt): integer inputs are token ids below --num-classes, '
                        'of shape B x S (--batch, --size) unless --input-shape')
    g.add_argument('--class-dim', choices=('1', 'last'),
                   help="where the model's output has its classes: '1' (N x C "
                        "[x H x W], images) or 'last' (B x T x V, a loss per "
                        "token); labels have the output's shape without it "
                        '(default: last for integer inputs, else 1)')
    g.add_argument('--loss', metavar='PKG.MOD:FN',
                   help='loss function of your own, FN(output, labels) -> scalar '
                        'tensor (default: cross entropy); labels are drawn as '
                        'for cross entropy')
    g.add_argument('--autocast', choices=('bf16', 'fp16'),
                   help='mixed precision: run the forward pass under '
                        'torch.autocast with bfloat16 or float16 (fp16 needs '
                        '--device cuda)')
    g.add_argument('--coarsen', type=_positive, metavar='DEPTH',
                   help='merge the operators of each layer into one node: a '
                        'layer is a module at depth DEPTH of the module tree '
                        '(1: children of the model, 2: their children, ...); '
                        'default: one node per operator')


def _choice(choices):
    """A converter that accepts one of choices."""
    def convert(text):
        if text not in choices:
            raise ValueError(text)
        return text
    return convert


def _is_ref(ref):
    """Whether ref is of the form PKG.MOD:NAME."""
    return ref.count(':') == 1 and not ref.startswith(':') and not ref.endswith(':')


def _at(source, lines, key):
    """'FILE: line N', where graph attribute key is on line N of FILE (lines:
    attr.name -> line), else 'FILE'."""
    if lines and key in lines:
        return '%s: line %d' % (source, lines[key])
    return source


def spec_from_args(args, recorded=None, source=None, lines=None):
    """The ModelSpec of the command line.  recorded (graph attributes written
    by remat-export, read from the file source; lines: the line of each)
    supplies what the command line leaves out.  Options that do not go
    together are a UsageError."""
    rec = recorded or {}
    model, module = args.model, args.module
    if model is None and module is None and rec.get('model'):
        if ':' in rec['model']:
            module = rec['model']
        else:
            model = rec['model']
    if model is None and module is None and source is not None:
        raise UsageError('%s records no model: give --model NAME or --module '
                         'PKG.MOD:CLASS' % source)
    if (model is None) == (module is None):
        raise UsageError('give exactly one of --model NAME and --module PKG.MOD:CLASS')
    for opt, ref, what in (('--module', args.module, 'CLASS'),
                           ('--loss', args.loss, 'FN')):
        if ref is not None and not _is_ref(ref):
            raise UsageError('%s %s: give it as PKG.MOD:%s' % (opt, ref, what))
    # what the graph records, in the same forms (the message names its line)
    if model is not None and args.model is None:
        with loading_pytorch():         # torchvision's list: PyTorch
            from .models import unknown_model
            why = unknown_model(model)
    else:
        why = None
    if why:
        raise UserError('%s: unknown model %r recorded: %s' % (
            _at(source or 'the graph', lines, 'model'), model, why))
    for key, ref in (('model', module if args.module is None else None),
                     ('loss', rec.get('loss') if args.loss is None else None)):
        if ref is not None and not _is_ref(ref):
            raise UserError('%s: bad %s %r recorded (not PKG.MOD:NAME)'
                            % (_at(source or 'the graph', lines, key), key, ref))

    def pick(value, key, convert, default):
        if value is not None:
            return value
        if key in rec:
            try:
                return convert(rec[key])
            except (ValueError, argparse.ArgumentTypeError):
                raise UserError('%s: bad %s %r recorded'
                                % (_at(source or 'the graph', lines, key), key, rec[key]))
        return default
    spec = ModelSpec(model=model, module=module,
                     seed=pick(args.seed, 'seed', _seed, 0),
                     device=pick(args.device, 'device', _choice(('cpu', 'cuda')), 'cpu'),
                     num_classes=pick(args.num_classes, 'num_classes', _positive, None),
                     coarsen=pick(args.coarsen, 'coarsen', _positive, None),
                     input_dtype=pick(args.input_dtype, 'input_dtype', _choice(INPUT_DTYPES), None),
                     class_dim=pick(args.class_dim, 'class_dim', _choice(('1', 'last')), None),
                     loss=pick(args.loss, 'loss', str, None),
                     autocast=pick(args.autocast, 'autocast', _choice(('bf16', 'fp16')), None))
    if spec.autocast == 'fp16' and spec.device != 'cuda':
        with loading_pytorch():
            import torch
        raise UsageError('--autocast fp16 needs --device cuda (PyTorch %s autocasts '
                         'to bfloat16 only on the CPU)' % torch.__version__)
    if module:
        if args.batch or args.size:
            raise UsageError('--module takes --input-shape, not --batch/--size')
        spec.input_shape = pick(args.input_shape, 'input_shape', _shape, None)
        if spec.input_shape is None or spec.num_classes is None:
            raise UsageError('--module needs --input-shape and --num-classes')
        spec.batch = spec.input_shape[0]
    elif args.input_shape or (args.batch is None and args.size is None and
                              'input_shape' in rec and 'size' not in rec):
        # a torchvision model's input given whole (a graph records it
        # so, without a size)
        if args.batch or args.size:
            raise UsageError('--input-shape takes the place of --batch and --size')
        if model in BUILTIN_MODELS:
            raise UsageError('--input-shape goes with --module or a torchvision '
                             'model; %s takes --batch and --size' % model)
        spec.input_shape = pick(args.input_shape, 'input_shape', _shape, None)
        spec.batch = spec.input_shape[0]
    else:
        spec.batch = pick(args.batch, 'batch', _positive, 2)
        spec.size = pick(args.size, 'size', _positive, 32)
    if spec.device == 'cuda':
        with loading_pytorch():
            import torch
        if not torch.cuda.is_available():
            raise UserError('--device cuda: no CUDA device is available')
    return spec


# The graph attributes remat-export writes only where they differ from
# the default (ModelSpec.attributes).
DEFAULT_OMITTED = ('coarsen', 'input_dtype', 'class_dim',
                   'loss', 'autocast')


def check_spec(spec, recorded, path, warn, lines=None):
    """The spec must describe the step the graph file at path records
    (recorded: its graph attributes; lines: the line of each).  The device,
    the cost model and the PyTorch version may differ: they change costs,
    not the graph; another PyTorch version is passed to warn(message)."""
    for key, value in spec.attributes().items():
        known = recorded.get(key)
        if key in ('device', 'cost_model'):
            continue
        if known is None:
            # remat-export records these only where they are not the
            # default: in a graph it wrote (one that records its model),
            # their absence is the default, which a value given is not
            if key in DEFAULT_OMITTED and recorded.get('model'):
                raise UserError('%s was exported with the default %s, not %s'
                                % (path, key.replace('_', '-'), value))
            continue
        if key == 'torch_version':
            if known != value:
                warn('warning: %s was exported with PyTorch %s, this is %s'
                     % (path, known, value))
        elif known != str(value):
            raise UserError('%s: the graph was exported with %s %s, not %s'
                            % (_at(path, lines, key), key, known, value))

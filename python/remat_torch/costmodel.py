"""Node costs without running anything: a roofline model of a named
accelerator.  Each operator takes max(FLOPs / peak FLOP/s, bytes moved /
memory bandwidth) plus a fixed launch time; a node costs the sum over its
operators.  This is what a graph traced on fake tensors (shapes only, no
memory) gets as its costs, so that steps larger than this machine can be
planned.

FLOPs are counted for the operators that dominate training (matrix
products, convolutions and their backward); every other operator counts
one FLOP per output element and is in practice bound by memory.  Bytes
moved are the bytes of the tensors an operator reads and writes.  The
peak FLOP/s depends on the dtype: bfloat16 and float16 on the tensor
cores, float32 convolutions on TF32 tensor cores (cuDNN's default),
float32 matrix products on the CUDA cores (PyTorch's default since 1.12).

The accelerators (dense peaks, no sparsity), from NVIDIA's data sheets:
  h100  H100 SXM5: 989 TFLOP/s bf16/fp16, 495 TF32, 67 fp32; 3.35 TB/s HBM3
        (NVIDIA H100 Tensor Core GPU datasheet, 2023)
  a100  A100 SXM4 80 GB: 312 TFLOP/s bf16/fp16, 156 TF32, 19.5 fp32;
        2.039 TB/s HBM2e (NVIDIA A100 Tensor Core GPU datasheet, 2021)
  v100  V100 SXM2: 125 TFLOP/s fp16 (no bf16: counted at the fp32 rate),
        15.7 fp32 (no TF32); 900 GB/s HBM2 (NVIDIA V100 datasheet, 2020)

The table and parse() need no PyTorch (remat-export checks --cost-model
before loading it); the functions that cost operators import it."""

import math
import operator

from .errors import UserError

# name: (half-precision tensor FLOP/s, bf16 supported, TF32 FLOP/s, fp32
# FLOP/s, bytes/s, description)
ACCELERATORS = {
    'h100': (989e12, True, 495e12, 67e12, 3.35e12, 'NVIDIA H100 SXM5'),
    'a100': (312e12, True, 156e12, 19.5e12, 2.039e12, 'NVIDIA A100 SXM4 80 GB'),
    'v100': (125e12, False, 15.7e12, 15.7e12, 0.9e12, 'NVIDIA V100 SXM2'),
}
LAUNCH_SECONDS = 4e-6       # a kernel launch and its tail, per operator


def parse(text):
    """'profile' (None) or 'roofline:NAME' (the accelerator's name)."""
    if text in (None, 'profile'):
        return None
    kind, _, name = text.partition(':')
    if kind != 'roofline' or name not in ACCELERATORS:
        raise UserError("unknown cost model %r: 'profile' or roofline:NAME, NAME one of %s"
                        % (text, ', '.join(sorted(ACCELERATORS))))
    return name


def _tensors(value):
    import torch
    import torch.utils._pytree as pytree
    return [t for t in pytree.tree_flatten(value)[0] if isinstance(t, torch.Tensor)]


def _numel(shape):
    return math.prod(shape) if len(shape) else 1


def _conv_flops(x_shape, w_shape, out_shape, transposed, groups):
    """Multiply-adds x 2 of a convolution (forward)."""
    if transposed:      # each input element meets Cout/groups x kernel weights
        return 2 * _numel(x_shape) * w_shape[1] * _numel(w_shape[2:])
    return 2 * _numel(out_shape) * (w_shape[1]) * _numel(w_shape[2:])


def flops(name, args, out):
    """FLOPs of one operator (overload packet name) on args giving out."""
    outs = _tensors(out)
    if name in ('mm', 'addmm'):
        a, b = (args[0], args[1]) if name == 'mm' else (args[1], args[2])
        return 2 * a.shape[0] * a.shape[1] * b.shape[1]
    if name in ('bmm', 'baddbmm'):
        a, b = (args[0], args[1]) if name == 'bmm' else (args[1], args[2])
        return 2 * a.shape[0] * a.shape[1] * a.shape[2] * b.shape[2]
    if name == 'convolution':
        x, w = args[0], args[1]
        return _conv_flops(x.shape, w.shape, outs[0].shape, bool(args[6]), int(args[8]))
    if name == 'convolution_backward':
        grad, x, w = args[0], args[1], args[2]
        mask = args[10]
        one = _conv_flops(x.shape, w.shape, grad.shape, bool(args[7]), int(args[9]))
        return one * (int(bool(mask[0])) + int(bool(mask[1])))
    return sum(t.numel() for t in outs)


def _is_matrix(name):
    return name in ('mm', 'addmm', 'bmm', 'baddbmm', 'convolution', 'convolution_backward')


def operator_seconds(accelerator, target, args, out):
    """The roofline time of one operator call on this accelerator."""
    import torch
    half, has_bf16, tf32, fp32, bandwidth, _ = ACCELERATORS[accelerator]
    if target is operator.getitem:
        return 0.0
    name = target.overloadpacket.__name__ if isinstance(target, torch._ops.OpOverload) \
        else getattr(target, '__name__', str(target))
    ins = _tensors(args)
    moved = sum(t.numel() * t.element_size() for t in ins + _tensors(out))
    work = flops(name, args, out)
    dtype = ins[0].dtype if ins else torch.float32
    if not _is_matrix(name):
        peak = fp32
    elif dtype == torch.float16 or (dtype == torch.bfloat16 and has_bf16):
        peak = half
    elif name.startswith('conv'):
        peak = tf32
    else:
        peak = fp32
    return max(work / peak, moved / bandwidth) + LAUNCH_SECONDS


def roofline(graph, accelerator, progress=None):
    """Sets each node's cost (ms) from the roofline of its operators, on
    the analysis run's values (graph.env; real or fake tensors)."""
    import torch.fx
    say = progress or (lambda msg: None)
    say('costing %d nodes with the roofline of %s'
        % (len(graph.nodes), ACCELERATORS[accelerator][5]))
    env = graph.env
    for group in graph.nodes:
        seconds = 0.0
        for m in group.members:
            args = torch.fx.node.map_arg(m.args, lambda a: env[a])
            seconds += operator_seconds(accelerator, m.target, args, env[m])
        group.cost = seconds * 1e3

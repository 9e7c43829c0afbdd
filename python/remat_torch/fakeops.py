"""Shape functions (Meta kernels) for the operators of a training step that
PyTorch 1.13 has none for.  Without them a fake tensor runs such an
operator's real kernel on zero-filled tensors of the full size, which
costs the memory and time a shapes-only trace is there to avoid.  Each is
registered only where PyTorch has no Meta kernel of its own; outputs are
contiguous, as the CPU and CUDA kernels return them."""

import contextlib

import torch

_LIBRARY = None


def _convolution_backward(grad_output, input, weight, bias_sizes, stride, padding,
                          dilation, transposed, output_padding, groups, output_mask):
    return (input.new_empty(input.shape) if output_mask[0] else None,
            weight.new_empty(weight.shape) if output_mask[1] else None,
            grad_output.new_empty(bias_sizes) if output_mask[2] else None)


def _nll_loss2d_forward(self, target, weight, reduction, ignore_index):
    shape = target.shape if reduction == 0 else ()     # 0: Reduction::None
    return self.new_empty(shape), self.new_empty(())


def _adaptive_avg_pool2d_backward(grad_output, self):
    return self.new_empty(self.shape)


_KERNELS = {
    'convolution_backward': _convolution_backward,
    'nll_loss2d_forward': _nll_loss2d_forward,
    '_adaptive_avg_pool2d_backward': _adaptive_avg_pool2d_backward,
}


def register():
    """Registers the missing Meta kernels (once)."""
    global _LIBRARY
    if _LIBRARY is not None:
        return
    _LIBRARY = torch.library.Library('aten', 'IMPL', 'Meta')
    for name, kernel in _KERNELS.items():
        if not torch._C._dispatch_has_kernel_for_dispatch_key('aten::' + name, 'Meta'):
            _LIBRARY.impl(name, kernel)


@contextlib.contextmanager
def fallbacks_reported(say):
    """Within it, operators that fake tensors run on zero-filled real
    tensors for want of a shape function are counted; at its end say(text)
    hears which, if any (their memory and time were spent)."""
    import torch._subclasses.fake_tensor as fake_tensor
    original = getattr(fake_tensor, 'run_fallback_kernel', None)
    if original is None:        # another PyTorch: nothing to watch
        yield
        return
    seen = {}

    def counted(fake_mode, func, *args, **kwargs):
        seen[str(func)] = seen.get(str(func), 0) + 1
        return original(fake_mode, func, *args, **kwargs)
    fake_tensor.run_fallback_kernel = counted
    try:
        yield
    finally:
        fake_tensor.run_fallback_kernel = original
        if seen:
            say('warning: %d operator calls have no shape function in PyTorch %s and '
                'ran their real kernels on zero-filled tensors (memory and time spent): %s'
                % (sum(seen.values()), torch.__version__,
                   ', '.join('%s (%d)' % kv for kv in sorted(seen.items()))))

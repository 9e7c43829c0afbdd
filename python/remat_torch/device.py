"""What depends on the device: deterministic kernels, the RNG state and
waiting for queued kernels."""

import contextlib
import os

import torch


def setup_torch(device):
    """Deterministic kernels, so that a plan's gradients can be compared
    bitwise with an ordinary step's (cuBLAS reads its setting at start)."""
    if device == 'cuda':
        os.environ.setdefault('CUBLAS_WORKSPACE_CONFIG', ':4096:8')
        torch.backends.cudnn.benchmark = False
        torch.backends.cudnn.deterministic = True
    torch.use_deterministic_algorithms(True, warn_only=True)


def rng_devices(device):
    """The devices torch.random.fork_rng must save for device."""
    return [torch.cuda.current_device()] if device == 'cuda' else []


def get_rng(device):
    """The RNG state random operators on device draw from."""
    return (torch.get_rng_state(),
            torch.cuda.get_rng_state() if device == 'cuda' else None)


def set_rng(device, state):
    """Restores a state get_rng returned."""
    torch.set_rng_state(state[0])
    if device == 'cuda':
        torch.cuda.set_rng_state(state[1])


def synchronize(device):
    """Waits for the kernels queued on device (for timing)."""
    if device == 'cuda':
        torch.cuda.synchronize()


_AUTOCAST = {'bf16': torch.bfloat16, 'fp16': torch.float16}


def autocast(spec):
    """The autocast context of spec's step (mixed precision), or one that
    does nothing."""
    if not spec.autocast:
        return contextlib.nullcontext()
    return torch.autocast(device_type=spec.device, dtype=_AUTOCAST[spec.autocast])

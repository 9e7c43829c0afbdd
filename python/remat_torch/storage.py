"""Which storages a value holds and their bytes: the memory that the graph's
mem, workspace and fixed_mem count and that the executor measures."""

import torch
import torch.utils._pytree as pytree
from torch._subclasses.fake_tensor import FakeTensor


def storage_key(t):
    """Identity of a tensor's storage, None when it has no bytes.  A fake
    tensor (shapes only) has no address: its storage object identifies it
    (the values of a trace are all kept alive, so none is reused)."""
    s = t.storage()
    if s.nbytes() == 0:
        return None
    if isinstance(t, FakeTensor):
        return ('fake', t.device.type, s._cdata)
    return (t.device.type, t.device.index, s.data_ptr())


def storages(value):
    """{storage key: bytes} of the tensors in a value (tensor, tuple, list,
    dict; None and non-tensors hold no storage)."""
    found = {}
    for t in pytree.tree_flatten(value)[0]:
        if isinstance(t, torch.Tensor):
            key = storage_key(t)
            if key is not None:
                found[key] = t.storage().nbytes()
    return found

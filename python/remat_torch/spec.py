"""ModelSpec: everything that determines a traced step, and so a graph."""

from dataclasses import dataclass

import torch


@dataclass
class ModelSpec:
    """The model, its input and the seed.  Two runs with the same spec
    trace the same step and give the same graph but for the costs."""
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
        """The shape of the input batch."""
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
        """Graph attributes recording how the graph was made, in the order
        they are written."""
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

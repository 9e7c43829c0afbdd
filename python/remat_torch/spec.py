"""ModelSpec: everything that determines a traced step, and so a graph.
Importing this module imports no PyTorch (the tools check their command
line before loading it); the methods that need it import it."""

from dataclasses import dataclass

# The built-in test models (models.py), by name.
BUILTIN_MODELS = ('mlp', 'smallcnn', 'smallunet', 'unet', 'gpt')


@dataclass
class ModelSpec:
    """The model, its input and the seed.  Two runs with the same spec
    trace the same step and give the same graph but for the costs."""
    model: str = None          # torchvision or built-in model name
    module: str = None         # 'pkg.mod:Class', instead of model
    batch: int = 2
    size: int = 32
    input_shape: tuple = None  # the full input shape: with module, or a
    #                            torchvision model's instead of batch, size
    num_classes: int = None
    seed: int = 0
    device: str = 'cpu'
    coarsen: int = None        # module depth of the layers, None: operators
    input_dtype: str = None    # 'float32' (default), 'float64', 'int64', 'int32'
    class_dim: str = None      # where the output has its classes: '1' or
    #                            'last'; default 'last' for integer inputs
    loss: str = None           # 'pkg.mod:fn', instead of cross-entropy
    autocast: str = None       # 'bf16' or 'fp16': mixed precision
    shapes_only: bool = False  # trace on fake tensors: no memory, no profile
    cost_model: str = None     # None: profiled; 'roofline:NAME'

    def dtype(self):
        """The torch dtype of the input batch."""
        import torch
        return getattr(torch, self.input_dtype or 'float32')

    def integer_input(self):
        return not self.dtype().is_floating_point

    def classes_last(self):
        """Whether the classes are the output's last dimension (a token
        model's B x T x V) rather than its second (N x C [x H x W])."""
        if self.class_dim is None:
            return self.integer_input()
        return self.class_dim == 'last'

    def shape(self):
        """The shape of the input batch: B x 3 x S x S for images, B x S
        (a sequence of S tokens) for integer inputs."""
        if self.input_shape:
            return self.input_shape
        if self.integer_input():
            return (self.batch, self.size)
        return (self.batch, 3, self.size, self.size)

    def name(self):
        """Short name for the graph: model, batch and input size."""
        if self.module or self.input_shape:
            base = (self.module or self.model).rsplit(':', 1)[-1]
            name = '%s-%s' % (base, 'x'.join(map(str, self.shape())))
        else:
            name = '%s-b%d-s%d' % (self.model, self.batch, self.size)
        if self.autocast:
            name += '-' + self.autocast
        return name + ('-c%d' % self.coarsen if self.coarsen else '')

    def attributes(self):
        """Graph attributes recording how the graph was made, in the order
        they are written."""
        import torch
        attrs = {'model': self.module or self.model,
                 'input_shape': ','.join(map(str, self.shape())),
                 'seed': self.seed, 'device': self.device,
                 'torch_version': torch.__version__}
        if not self.module:
            attrs['batch'] = self.batch
            if not self.input_shape:    # else the shape alone says it
                attrs['size'] = self.size
        if self.num_classes is not None:
            attrs['num_classes'] = self.num_classes
        if self.coarsen:
            attrs['coarsen'] = self.coarsen
        # Recorded only where they differ from the defaults, so that graphs
        # written before these options existed still describe their step.
        if self.input_dtype not in (None, 'float32'):
            attrs['input_dtype'] = self.input_dtype
        if self.class_dim is not None:
            attrs['class_dim'] = self.class_dim
        if self.loss:
            attrs['loss'] = self.loss
        if self.autocast:
            attrs['autocast'] = self.autocast
        if self.cost_model:
            attrs['cost_model'] = self.cost_model
        return attrs

"""remat_torch: the PyTorch side of remat-plan, behind the remat-export and
remat-exec front ends.

One training step of a model is traced into a joint graph of aten operators
and turned into the dataflow graph of remat-plan(5); a plan for that graph
can then be run on the same model and checked.  The modules, in the order a
step goes through them:

  errors    UserError, the mistakes the tools report in one line
  spec      ModelSpec: everything that determines the traced step
  cli       the model options shared by the command-line tools
  models    the built-in test models; constructing any model of a spec
  device    deterministic kernels, RNG state, synchronisation
  step      the problem (model, parameters, data) and an ordinary step
  trace     tracing a step and analysing it into nodes (how PyTorch is
            modelled is explained there)
  graph     the graph model: OpNode and JointGraph
  storage   which storages a value holds, and their bytes
  coarsen   merging the operator nodes of each layer
  profile   timing nodes
  execute   running nodes and plans, measuring live bytes, comparing
            results
  graphio   the GraphML graph (writer and reader) and the plan reader
  codegen   a plan as straight-line Python code
  runtime   compile(): training by a plan

Importing the package imports no PyTorch, nor do errors, spec, cli and
graphio (the tools check their command line and read their files before
loading it, which takes a second or two), nor costmodel until it costs an
operator; the other modules (and compile) do.
"""

from .errors import UserError

__all__ = ['UserError', 'compile']


def compile(model, x, y, **options):
    """A training step for model that runs by a remat-plan plan: see
    remat_torch.runtime.compile."""
    from .runtime import compile as compile_step
    return compile_step(model, x, y, **options)

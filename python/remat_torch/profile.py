"""Profiling: the cost of each node, timed alone on its real inputs."""

import time

import torch

from .device import rng_devices, synchronize
from .execute import compute


def profile(graph, repeat, progress=None):
    """Sets each node's cost to the best of repeat runs of it alone on its
    inputs from the analysis run (graph.env), in milliseconds.  The global
    RNG is left as it was.  progress(message) hears what it is doing."""
    say = progress or (lambda msg: None)
    say('profiling %d nodes on %s (best of %d)' % (len(graph.nodes), graph.device, repeat))
    inputs = {ph: graph.env[ph] for ph in graph.placeholders + graph.constants}
    with torch.no_grad(), torch.random.fork_rng(devices=rng_devices(graph.device)):
        for group in graph.nodes:
            best = float('inf')
            for _ in range(repeat):
                synchronize(graph.device)
                start = time.perf_counter()
                compute(graph, group, lambda g: graph.env, inputs, again=True)
                synchronize(graph.device)
                best = min(best, time.perf_counter() - start)
            group.cost = best * 1e3

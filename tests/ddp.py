"""Data parallelism with a plan: two processes (gloo, on the CPU) train the
built-in GPT-style model, each on its own batch, one step by the plan
(remat_torch.compile with the given graph and plan and the process group)
and one by DistributedDataParallel without a plan, from the same RNG
state (under the graph's autocast, if any).  The averaged gradients and
the losses must be bitwise equal.

  python3 tests/ddp.py GRAPH PLAN

GRAPH is `remat-export --model gpt --batch B --size S`'s; prints one line
per process, 'rank R: OK ...' or 'rank R: DIFFER ...', and exits 0 when
both processes agree with DDP."""

import copy
import os
import sys
import tempfile

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel

import remat_torch
from remat_torch.device import autocast
from remat_torch.execute import bitwise_equal
from remat_torch.graphio import GraphFile
from remat_torch.models import GPT
from remat_torch.spec import ModelSpec

WORLD = 2


def worker(rank, graph, plan, rendezvous, results):
    dist.init_process_group('gloo', init_method='file://' + rendezvous,
                            rank=rank, world_size=WORLD)
    attrs = GraphFile(graph).attrs
    batch, seq, vocab = (int(attrs[k]) for k in ('batch', 'size', 'num_classes'))
    torch.manual_seed(int(attrs.get('seed', 0)))     # as remat-export builds it
    model = GPT(vocab, seq)
    reference = DistributedDataParallel(copy.deepcopy(model))
    gen = torch.Generator().manual_seed(100 + rank)   # each process its batch
    x = torch.randint(0, vocab, (batch, seq), generator=gen)
    y = torch.randint(0, vocab, (batch, seq), generator=gen)
    step = remat_torch.compile(model, x, y, graph=graph, plan=plan,
                               autocast=attrs.get('autocast'),
                               process_group=dist.group.WORLD)

    torch.manual_seed(7 + rank)
    loss = step(x, y)
    torch.manual_seed(7 + rank)
    with autocast(ModelSpec(autocast=attrs.get('autocast'))):
        out = reference(x)
        ref_loss = F.cross_entropy(out.reshape(-1, vocab), y.reshape(-1))
    ref_loss.backward()

    differ = [n for (n, p), q in zip(model.named_parameters(), reference.module.parameters())
              if not bitwise_equal(p.grad, q.grad)]
    same_loss = bitwise_equal(loss, ref_loss.detach())
    ok = not differ and same_loss
    results[rank] = ('rank %d: %s: loss %.6g (DDP %.6g), %d averaged gradients%s'
                     % (rank, 'OK' if ok else 'DIFFER', loss.item(), ref_loss.item(),
                        sum(1 for _ in model.parameters()),
                        ' identical to DDP' if not differ
                        else ' differ from DDP: ' + ', '.join(differ[:3])))
    dist.destroy_process_group()


def main():
    graph, plan = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        results = mp.Manager().dict()
        mp.spawn(worker, args=(graph, plan, os.path.join(tmp, 'rendezvous'), results),
                 nprocs=WORLD, join=True)
        lines = [results.get(r, 'rank %d: no result' % r) for r in range(WORLD)]
    for line in lines:
        print(line)
    return 0 if all(': OK:' in line for line in lines) else 1


if __name__ == '__main__':
    sys.exit(main())

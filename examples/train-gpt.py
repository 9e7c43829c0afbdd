"""Train the built-in GPT-style model within 60% of its memory peak, and
check it against ordinary training.

  /usr/bin/python3 examples/train-gpt.py [STEPS [SECONDS]]

remat_torch.compile plans the step at budget='60%' (bfloat16 autocast,
token inputs, a loss per token); the model then trains STEPS steps (default
50) with AdamW by the plan, and a copy of it by loss.backward(), a step of
each in turn on the same batches from the same RNG state.  Prints the
losses every 10 steps, whether they and the final parameters are bitwise
identical, the peak of live tensor bytes measured against the predicted
one, and the time per step of both.  Exit status 0 when identical."""

import copy
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'python'))
import remat_torch                                  # noqa: E402
from remat_torch.models import GPT                  # noqa: E402

VOCAB, BATCH, SEQ = 64, 8, 64


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    limit = float(sys.argv[2]) if len(sys.argv) > 2 else 10
    torch.manual_seed(0)
    model = GPT(VOCAB, SEQ)
    reference = copy.deepcopy(model)
    gen = torch.Generator().manual_seed(1)

    def batch():        # a task it can learn: the next token is x + 1
        x = torch.randint(0, VOCAB, (BATCH, SEQ), generator=gen)
        return x, (x + 1) % VOCAB
    x, y = batch()

    step = remat_torch.compile(model, x, y, budget='60%', autocast='bf16',
                               time_limit=limit)
    print('plan (%s): budget %s bytes, %d statements, predicted cost %.3fx, '
          'predicted peak %d bytes' % (step.plan.attrs.get('strategy'),
                                       step.plan.attrs.get('budget'), len(step.plan.statements),
                                       step.predicted_cost, step.predicted_peak))

    opts = [torch.optim.AdamW(m.parameters(), lr=3e-3) for m in (model, reference)]
    rng = [torch.get_rng_state()] * 2
    seconds = [[], []]
    identical = True
    for i in range(steps):
        losses = []
        for side in (0, 1):
            torch.set_rng_state(rng[side])
            opts[side].zero_grad()
            start = time.perf_counter()
            if side == 0:
                loss = step(x, y)
            else:
                with torch.autocast('cpu', dtype=torch.bfloat16):
                    out = reference(x)
                    loss = F.cross_entropy(out.reshape(-1, VOCAB), y.reshape(-1))
                loss.backward()
            seconds[side].append(time.perf_counter() - start)
            opts[side].step()
            rng[side] = torch.get_rng_state()
            losses.append(loss.detach())
        identical &= torch.equal(losses[0], losses[1])
        if (i + 1) % 10 == 0 or i + 1 == steps:
            print('step %3d: loss %.6f by the plan, %.6f ordinary'
                  % (i + 1, losses[0].item(), losses[1].item()))
        x, y = batch()
    same_params = all(torch.equal(p, q) for p, q in
                      zip(model.parameters(), reference.parameters()))
    peak = step.measure_peak()
    plan_ms, step_ms = (1e3 * statistics.median(s) for s in seconds)
    print('losses %s, parameters %s after %d steps'
          % ('identical' if identical else 'DIFFER',
             'identical' if same_params else 'DIFFER', steps))
    print('peak live bytes: measured %d, predicted %d' % (peak, step.predicted_peak))
    print('time per step (median): %.1f ms by the plan, %.1f ms ordinary (%.2fx; '
          'predicted %.2fx)' % (plan_ms, step_ms, plan_ms / step_ms, step.predicted_cost))
    return 0 if identical and same_params and peak == step.predicted_peak else 1


if __name__ == '__main__':
    sys.exit(main())

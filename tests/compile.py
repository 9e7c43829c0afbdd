"""remat_torch.compile as a user calls it: the built-in GPT-style model is
compiled for a budget (traced, profiled and planned by remat-plan), then
trained STEPS steps with Adam by the compiled step and, on a copy, by
loss.backward(), on the same batches from the same RNG state; then
compiled again from a shapes-only trace with the roofline cost model and
trained with SGD.  Losses and parameters must be bitwise equal and the
measured peaks the predicted ones; the misuses below must be refused with
a message.  Prints TAP-like lines 'ok - ...' / 'not ok - ...'.

  python3 tests/compile.py REMAT_PLAN [STEPS]"""

import copy
import sys

import torch
import torch.nn.functional as F

import remat_torch
from remat_torch import UserError
from remat_torch.execute import bitwise_equal
from remat_torch.models import GPT

VOCAB, BATCH, SEQ = 64, 4, 32


def check(ok, what):
    print('%s - %s' % ('ok' if ok else 'not ok', what))
    return ok


def refused(what, call, error=UserError):
    try:
        call()
    except error as e:
        return check('\n' not in str(e), '%s: refused (%s)' % (what, e))
    return check(False, '%s: not refused' % what)


def trained_alike(step, model, reference, optimizer, batches):
    """Trains model by the compiled step and reference by loss.backward(),
    each from the same RNG state, with optimizer(module) on batches.
    (losses bitwise equal, parameters bitwise equal afterwards)."""
    losses = {}
    for side, module in (('plan', model), ('ordinary', reference)):
        opt = optimizer(module)
        torch.manual_seed(5)
        losses[side] = []
        for x, y in batches:
            opt.zero_grad()
            if side == 'plan':
                loss = step(x, y)
            else:
                out = module(x)
                loss = F.cross_entropy(out.reshape(-1, VOCAB), y.reshape(-1))
                loss.backward()
            opt.step()
            losses[side].append(loss.detach())
    return (all(bitwise_equal(a, b) for a, b in zip(losses['plan'], losses['ordinary'])),
            all(bitwise_equal(p, q) for p, q in zip(model.parameters(), reference.parameters())))


def main():
    program, steps = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3
    torch.manual_seed(0)
    model = GPT(VOCAB, SEQ)
    reference = copy.deepcopy(model)
    gen = torch.Generator().manual_seed(1)
    batches = [(torch.randint(0, VOCAB, (BATCH, SEQ), generator=gen),
                torch.randint(0, VOCAB, (BATCH, SEQ), generator=gen)) for _ in range(steps)]
    x0, y0 = batches[0]
    rng = torch.get_rng_state()
    step = remat_torch.compile(model, x0, y0, budget='60%', time_limit=2,
                               remat_plan=program)
    good = check(torch.equal(rng, torch.get_rng_state()),
                 'compile leaves the RNG state as it was')
    good &= check(step.predicted_cost > 1.0 and len(step.plan.statements) > 0,
                  'compiled at 60%%: %d statements, predicted cost %.3fx, peak %d bytes'
                  % (len(step.plan.statements), step.predicted_cost, step.predicted_peak))

    same_losses, same_params = trained_alike(
        step, model, reference, lambda m: torch.optim.Adam(m.parameters(), lr=1e-3), batches)
    good &= check(same_losses, '%d Adam steps: losses identical to loss.backward() training'
                  % steps)
    good &= check(same_params, '%d Adam steps: parameters identical' % steps)

    good &= check(step.measure_peak() == step.predicted_peak,
                  'the measured peak is the predicted one')

    # Planned without running the step: a shapes-only trace and the
    # roofline cost model; training by that plan is still exact.
    torch.manual_seed(0)
    model2 = GPT(VOCAB, SEQ)
    reference2 = copy.deepcopy(model2)
    step2 = remat_torch.compile(model2, x0, y0, budget='60%', time_limit=2,
                                cost_model='roofline:h100', remat_plan=program)
    same_losses, same_params = trained_alike(
        step2, model2, reference2, lambda m: torch.optim.SGD(m.parameters(), lr=0.1), batches)
    good &= check(same_losses and same_params,
                  'compiled with the roofline cost model (shapes only): %d SGD steps '
                  'identical to loss.backward() training' % steps)
    good &= check(step2.graph_file.attrs.get('cost_model') == 'roofline:h100' and
                  step2.measure_peak() == step2.predicted_peak,
                  'compiled with the roofline cost model: the measured peak is the '
                  'predicted one')

    good &= refused('a batch of another shape',
                    lambda: step(x0[:, :SEQ // 2], y0[:, :SEQ // 2]), ValueError)
    good &= refused('no budget', lambda: remat_torch.compile(model, x0, y0))
    good &= refused('an unknown cost model',
                    lambda: remat_torch.compile(model, x0, y0, budget='60%',
                                                cost_model='roofline:tpu'))
    good &= refused('a graph without its plan',
                    lambda: remat_torch.compile(model, x0, y0, graph='g.xml'))
    good &= refused('a budget below the smallest possible',
                    lambda: remat_torch.compile(model, x0, y0, budget='1K',
                                                remat_plan=program))
    good &= refused('a plan larger than the device',
                    lambda: remat_torch.compile(model, x0, y0, budget='100%',
                                                device_memory=1000, remat_plan=program))
    return 0 if good else 1


if __name__ == '__main__':
    sys.exit(main())

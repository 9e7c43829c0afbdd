#!/bin/sh
# Round trip through PyTorch: tools/remat-export traces the built-in test
# models, remat-plan plans them with every strategy at 60% of the
# checkpoint-all peak (and checkpoint-all at 100%), and tools/remat-exec runs
# each plan (a graph's plans in one process, on one trace of the step,
# which halves the suite's time): the gradients must be bitwise those of
# an ordinary step, the
# measured peak within 5% of the predicted one and never over the budget.
# A strategy may find no plan (remat-plan exits 1 and says so), but
# checkpoint-all at 100% and ilp at 60% must make the whole round trip.
# A graph coarsened to layers (--coarsen) makes the round trip too, at 90%
# of its own checkpoint-all peak.
# The scripts are the ones make writes into the build tree; they import the
# remat_torch package of the source tree (python/, through PYTHONPATH in a
# VPATH build), never an installed one.
# Skipped when /usr/bin/python3 has no PyTorch, unless REMAT_REQUIRE_TORCH=1
# (CI sets it): then that is a failure.
# REMAT_ROUNDTRIP=skip skips it (CI, in make distcheck: it ran before).
. "${top_srcdir:-.}/tests/lib.sh"
[ "${REMAT_ROUNDTRIP:-}" = skip ] && skip_all "REMAT_ROUNDTRIP=skip"
PY=/usr/bin/python3
if ! "$PY" -c 'import torch, torchvision' >/dev/null 2>&1; then
	why="$PY cannot import torch and torchvision (Debian: apt-get install python3-torch python3-torchvision)"
	[ "${REMAT_REQUIRE_TORCH:-0}" = 1 ] || skip_all "$why"
	fail "$why"
	finish
	exit
fi
BUILD=$(cd "$top_builddir" && pwd)
EXPORT="$BUILD/tools/remat-export"
EXEC="$BUILD/tools/remat-exec"
if [ ! -f "$EXPORT" ] || [ ! -f "$EXEC" ]; then
	fail "no $EXPORT or $EXEC: run make first"
	finish
	exit
fi
PYTHONPATH="$SRC/python${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH

# check_line NAME LINE BUDGET WHY: checks one plan's report line from
# remat-exec (the one that starts OK: or FAILED:); WHY says what went
# wrong where there is none.
check_line() {
	measured=$(echo "$2" | sed -n 's/.*peak measured \([0-9]*\) B.*/\1/p')
	predicted=$(echo "$2" | sed -n 's/.*, predicted \([0-9]*\) B.*/\1/p')
	if [ -z "$measured" ] || [ -z "$predicted" ]; then
		fail "$1: $4"
		return
	fi
	note "  $1: predicted $predicted, measured $measured," \
	    "budget $3; ${2#*; plan }"
	case $2 in
	"OK: gradients identical;"*) pass "$1: gradients identical" ;;
	*) fail "$1: $2" ;;
	esac
	diff=$((measured - predicted))
	[ "$diff" -lt 0 ] && diff=$((-diff))
	if [ $((diff * 100)) -le $((predicted * 5)) ]; then
		pass "$1: measured peak within 5% of the predicted one"
	else
		fail "$1: measured peak $measured is not within 5% of the predicted $predicted"
	fi
	case $2 in
	OK:*) [ "$measured" -le "$3" ] ;;
	*) false ;;
	esac && pass "$1: measured peak within the budget" ||
	    fail "$1: measured peak $measured over the budget $3 ($2)"
}

# plan_and_queue NAME GRAPH STRATEGY BUDGET MUST: plans GRAPH with
# STRATEGY within BUDGET bytes and queues the plan for exec_queued.
# Without MUST, a strategy may find no plan, if remat-plan says so.
nq=0
plan_and_queue() {
	nq=$((nq + 1))
	p=$TMP/plan-$nq.xml
	"$RP" --graph "$2" --budget "$4" -s "$3" -t 5 -o "$p" >"$TMP/rep" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ] && [ -s "$p" ]; then
		printf '%s\t%s\t%s\n' "$1" "$p" "$4" >>"$TMP/queue"
	elif [ "$rc" -eq 1 ] && [ -z "${5:-}" ] && [ ! -e "$p" ] &&
	    grep -Eq "^$3 +(over budget|no plan) " "$TMP/rep"; then
		pass "$1: no plan within $4 bytes ($(grep -E "^$3 " "$TMP/rep" |
		    awk '{ print $2, $3 }'))"
	else
		fail "$1: remat-plan exited $rc:
$(sed 's/^/    /' "$TMP/rep")"
	fi
}

# exec_queued GRAPH: runs the queued plans of GRAPH in one remat-exec (one
# trace of the step, then each plan against the budget it records) and
# checks each one's report.
exec_queued() {
	[ -s "$TMP/queue" ] || return 0
	g=$1
	set --
	while IFS='	' read -r name p b; do
		set -- "$@" --plan "$p"
	done <"$TMP/queue"
	"$PY" "$EXEC" --graph "$g" "$@" --repeat 3 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	grep -E '^(OK|FAILED): ' "$TMP/out" >"$TMP/lines"
	exec 4<"$TMP/lines"
	while IFS='	' read -r name p b; do
		IFS= read -r line <&4 || line=
		check_line "$name" "$line" "$b" \
		    "remat-exec exited $rc: $(tail -1 "$TMP/err")"
	done <"$TMP/queue"
	exec 4<&-
	rm -f "$TMP/queue"
}

# MODEL:SIZE:PCT[:DEPTH]: plans at PCT% of the checkpoint-all peak, with
# the graph coarsened to module depth DEPTH if given.
for spec in mlp:16:60 smallcnn:16:60 smallunet:48:60 smallcnn:16:90:2; do
	IFS=: read -r model size pct depth <<EOF
$spec
EOF
	g=$TMP/$model${depth:+-c$depth}.xml
	if ! "$PY" "$EXPORT" --model "$model" --batch 2 --size "$size" \
	    ${depth:+--coarsen "$depth"} -o "$g" 2>"$TMP/err"; then
		fail "$model: remat-export failed: $(tail -1 "$TMP/err")"
		continue
	fi
	model=$model${depth:+ (coarsened to depth $depth)}
	pass "$model: remat-export wrote a graph"
	peak=$("$RP" --graph "$g" --info -f json |
	    sed -n 's/.*"checkpoint_all_peak":\([0-9]*\).*/\1/p')
	if [ -z "$peak" ]; then
		fail "$model: remat-plan --info gives no checkpoint-all peak"
		continue
	fi
	note "$model (batch 2, size $size): checkpoint-all peak $peak bytes"
	plan_and_queue "$model checkpoint-all 100%" "$g" checkpoint-all "$peak" must
	budget=$((peak * pct / 100))
	for s in $(strategies); do
		must=
		[ "$s" = ilp ] && must=yes
		plan_and_queue "$model $s $pct%" "$g" "$s" "$budget" $must
	done
	exec_queued "$g"
done

# Training a model with BatchNorm by a plan: running statistics updated once
# per step, as in ordinary training.
if [ -s "$TMP/smallcnn.xml" ] &&
    "$RP" --graph "$TMP/smallcnn.xml" --budget 60% -s dtr -o "$TMP/sc-plan.xml" >/dev/null 2>&1; then
	"$PY" "$EXEC" --graph "$TMP/smallcnn.xml" --plan "$TMP/sc-plan.xml" --steps 2 \
	    --repeat 1 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ "$rc" = 0 ] && grep -q '^training: 2 steps: losses and parameters identical;' "$TMP/out" &&
	    pass "smallcnn dtr 60%: 2 training steps, losses, parameters and BatchNorm statistics identical" ||
	    fail "smallcnn dtr 60%: training by the plan: exit $rc: $(tail -2 "$TMP/out") $(tail -1 "$TMP/err")"
else
	fail "smallcnn: no dtr plan at 60% to train with"
fi

# Training by a plan.  The GPT-style model (integer token inputs, a loss per
# token, bf16 autocast) planned at 60%: remat-exec checks one step, then
# trains 3 SGD steps by the plan and by loss.backward() side by side; both
# must be bitwise identical.  Two processes (gloo) then take a
# data-parallel step by the plan and by DDP: identical averaged gradients.
# tests/compile.py compiles the model through remat_torch.compile (which
# runs remat-plan itself) and trains it with Adam.
g=$TMP/gpt.xml
if "$PY" "$EXPORT" --model gpt --batch 4 --size 32 --autocast bf16 -o "$g" \
    2>"$TMP/err"; then
	pass "gpt (bf16 autocast): remat-export wrote a graph"
	grep -q '<data key="dtype">int64</data>' "$g" &&
	    grep -q '<data key="autocast">bf16</data>' "$g" &&
	    pass "gpt: the graph records int64 inputs and bf16 autocast" ||
	    fail "gpt: the graph does not record its input dtype and autocast"
	if "$RP" --graph "$g" --budget 60% -t 2 -o "$TMP/gpt-plan.xml" >"$TMP/rep" 2>&1; then
		"$PY" "$EXEC" --graph "$g" --plan "$TMP/gpt-plan.xml" --steps 3 \
		    --repeat 1 >"$TMP/out" 2>"$TMP/err"
		rc=$?
		note "  gpt 60%: $(grep '^OK\|^FAILED' "$TMP/out")"
		note "  gpt 60%: $(grep '^training' "$TMP/out")"
		[ "$rc" = 0 ] && grep -q '^OK: gradients identical;' "$TMP/out" &&
		    pass "gpt 60%: one step by the plan, gradients identical" ||
		    fail "gpt 60%: remat-exec exited $rc: $(tail -1 "$TMP/err") $(tail -1 "$TMP/out")"
		grep -q '^training: 3 steps: losses and parameters identical;' "$TMP/out" &&
		    [ "$(grep -c '^step [123]: .*ordinary;' "$TMP/out")" = 3 ] &&
		    pass "gpt 60%: 3 training steps, losses and parameters identical" ||
		    fail "gpt 60%: training by the plan differs:
$(sed 's/^/    /' "$TMP/out")"
		if "$PY" "$SRC/tests/ddp.py" "$g" "$TMP/gpt-plan.xml" >"$TMP/out" 2>"$TMP/err" &&
		    [ "$(grep -c ': OK: ' "$TMP/out")" = 2 ]; then
			pass "gpt 60%: a 2-process gloo step by the plan, gradients identical to DDP's"
		else
			fail "gpt 60%: data-parallel step: $(cat "$TMP/out") $(tail -3 "$TMP/err")"
		fi
		"$PY" "$EXEC" --graph "$g" --plan "$TMP/gpt-plan.xml" --device-memory 1000 \
		    >"$TMP/out" 2>"$TMP/err"
		[ $? = 2 ] && [ ! -s "$TMP/out" ] &&
		    tail -1 "$TMP/err" | grep -q "^remat-exec: .* needs [0-9]* bytes at its peak; cpu has 1000 bytes available$" &&
		    pass "a plan larger than the device: refused before it runs" ||
		    fail "a plan larger than the device: $(tail -1 "$TMP/err")"
	else
		fail "gpt 60%: remat-plan found no plan: $(tail -3 "$TMP/rep")"
	fi
else
	fail "gpt: remat-export failed: $(tail -1 "$TMP/err")"
fi
(cd "$TMP" && "$PY" "$SRC/tests/compile.py" "$RP" 3) >"$TMP/out" 2>"$TMP/err"
rc=$?
while read -r line; do
	case $line in
	"ok - "*) pass "compile: ${line#ok - }" ;;
	"not ok - "*) fail "compile: ${line#not ok - }" ;;
	esac
done <"$TMP/out"
[ "$rc" = 0 ] && grep -q '^ok - ' "$TMP/out" || fail "tests/compile.py exited $rc: $(tail -3 "$TMP/err")"
# The README's walkthrough script, 3 steps instead of 50.
"$PY" "$SRC/examples/train-gpt.py" 3 2 >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = 0 ] && grep -q '^losses identical, parameters identical after 3 steps$' "$TMP/out" &&
    grep -q '^peak live bytes: measured \([0-9]*\), predicted \1$' "$TMP/out" &&
    pass "examples/train-gpt.py: 3 steps identical to ordinary training, peak as predicted" ||
    fail "examples/train-gpt.py exited $rc: $(cat "$TMP/out") $(tail -3 "$TMP/err")"

# The exported graph is the same from run to run but for the measured costs.
g=$TMP/smallcnn.xml
if [ -s "$g" ] && "$PY" "$EXPORT" --model smallcnn --batch 2 --size 16 \
    -o "$TMP/again.xml" 2>/dev/null; then
	mask() { sed 's|<data key="cost">[^<]*</data>|COST|' "$1"; }
	mask "$g" >"$TMP/a"
	mask "$TMP/again.xml" >"$TMP/b"
	cmp -s "$TMP/a" "$TMP/b" &&
	    pass "smallcnn: exporting twice gives the same graph but for the costs" ||
	    fail "smallcnn: exporting twice gives different graphs"
else
	fail "smallcnn: second export failed"
fi

# A shapes-only export (fake tensors, the roofline cost model) is the real
# export's graph but for the costs: the same nodes, sizes and edges.
if [ -s "$TMP/smallcnn.xml" ] && "$PY" "$EXPORT" --model smallcnn --batch 2 --size 16 \
    --shapes-only --cost-model roofline:h100 -o "$TMP/fake.xml" 2>"$TMP/err"; then
	mask() { sed -e 's|<data key="cost">[^<]*</data>|COST|' -e '/<data key="costmodel">/d' "$1"; }
	mask "$TMP/smallcnn.xml" >"$TMP/a"
	mask "$TMP/fake.xml" >"$TMP/b"
	cmp -s "$TMP/a" "$TMP/b" && grep -q '<data key="costmodel">roofline:h100</data>' "$TMP/fake.xml" &&
	    pass "smallcnn: a shapes-only export gives the real export's graph but for the costs" ||
	    fail "smallcnn: the shapes-only export differs from the real one: $(diff "$TMP/a" "$TMP/b" | head -5)"
else
	fail "smallcnn: shapes-only export failed: $(tail -1 "$TMP/err")"
fi

# User mistakes end in a one-line message (after any progress lines), with
# no traceback and a non-zero exit.
mistake() {
	what=$1
	shift
	"$PY" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" -ne 0 ] && ! grep -q Traceback "$TMP/err" &&
	    tail -1 "$TMP/err" | grep -q '^remat-e[a-z]*: '; then
		pass "$what: a one-line message"
	else
		fail "$what: exit $rc, stderr:
$(sed 's/^/    /' "$TMP/err")"
	fi
}
# said WHAT PATTERN: the last line of the last mistake's message matches
# PATTERN (grep).
said() {
	tail -1 "$TMP/err" | grep -q "$2" && pass "$1" ||
	    fail "$1: $(tail -1 "$TMP/err")"
}
mistake "unknown model" "$EXPORT" --model no-such-model -o "$TMP/x.xml"
mistake "unwritable output" "$EXPORT" --model mlp --size 8 -o "$TMP/no/such/dir/x.xml"
# torchvision's own checks of a model's arguments (a traceback before)
mistake "a ViT at a size its patches do not divide" "$EXPORT" --model vit_b_16 \
    --size 20 -o "$TMP/x.xml"
said "a ViT at a size its patches do not divide: said so" "^remat-export: torchvision cannot build vit_b_16 for images of 20x20: Input shape indivisible by patch size!$"
# An output that cannot be written is found before the tracing, also
# through a symbolic link; an empty name is a usage error.
ln -s no/such/x.xml "$TMP/dangling.xml"
mistake "a link to no directory" "$EXPORT" --model mlp --size 8 -o "$TMP/dangling.xml"
grep -q "tracing" "$TMP/err" && fail "a link to no directory: found after the tracing" ||
    pass "a link to no directory: found before the tracing"
mistake "an empty output name" "$EXPORT" --model mlp --size 8 -o ""
[ "$rc" = 2 ] && pass "an empty output name: status 2" ||
    fail "an empty output name: status $rc"
mistake "bad shape" "$EXPORT" --module m:C --input-shape 2,x -o "$TMP/x.xml"
# A --module without its class is a command-line mistake (status 2).
mistake "--module without :CLASS" "$EXPORT" --module mynet --input-shape 2,8 \
    --num-classes 4 -o "$TMP/x.xml"
[ "$rc" = 2 ] && pass "--module without :CLASS: status 2" ||
    fail "--module without :CLASS: status $rc"
cat >"$TMP/usermodels.py" <<'EOF'
import torch
import torch.nn as nn
import torch.utils.checkpoint


class Consts(nn.Module):
    """Tensors made in forward from Python values (as Swin's relative
    position index): make_fx keeps them as constants of the trace."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)
        self.out = nn.Linear(8, 4)

    def forward(self, x):
        h = torch.relu(self.lin(x))
        h = h.index_select(1, torch.tensor([7, 6, 5, 4, 3, 2, 1, 0]))
        return self.out(h * torch.tensor(0.5))


class Recurrent(nn.Module):
    """nn.LSTM and nn.GRU run on lists of their weights that
    functional_call did not replace: their gradients were lost."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(8, 8, num_layers=2, batch_first=True)
        self.gru = nn.GRU(8, 8, batch_first=True)
        self.out = nn.Linear(8, 4)

    def forward(self, x):
        h, _ = self.gru(self.lstm(x)[0])
        return self.out(h[:, -1])


class Tied(nn.Module):
    """Two layers share a weight: named_parameters() names it once."""

    def __init__(self):
        super().__init__()
        self.a = nn.Linear(8, 8, bias=False)
        self.b = nn.Linear(8, 8, bias=False)
        self.b.weight = self.a.weight
        self.out = nn.Linear(8, 4)

    def forward(self, x):
        return self.out(self.b(torch.relu(self.a(x))))


class Frozen(nn.Module):
    """A frozen body (no gradients) under a trained head."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8),
                                  nn.ReLU())
        self.body.requires_grad_(False)
        self.out = nn.Linear(8 * 8 * 8, 4)

    def forward(self, x):
        return self.out(self.body(x).flatten(1))


class Checkpointed(nn.Module):
    """Checkpointing of its own (reentrant, with dropout, and not): the
    trace failed (autograd.grad), or read the model's weights."""

    def __init__(self):
        super().__init__()
        self.pre = nn.Linear(8, 16)
        self.seq = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Dropout(0.2),
                                 nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 16))
        self.out = nn.Linear(16, 4)

    def forward(self, x):
        h = torch.utils.checkpoint.checkpoint_sequential(self.seq, 3, self.pre(x))
        h = torch.utils.checkpoint.checkpoint(self.seq[3], h, use_reentrant=False)
        return self.out(h)


class PlainAttr(nn.Module):
    """A tensor kept as a plain attribute, not a buffer (--shapes-only
    refused it: a real tensor among fake ones)."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 4)
        self.scale = torch.linspace(0.5, 1.5, 4)

    def forward(self, x):
        return self.lin(x) * self.scale


class AliasAttr(nn.Module):
    """A plain attribute that shares a trained weight's storage."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 4)
        self.wt = self.lin.weight.detach().t()

    def forward(self, x):
        return x @ self.wt + self.lin.bias


class Scripted(nn.Module):
    """A TorchScript submodule: functional_call cannot replace its weights."""

    def __init__(self):
        super().__init__()
        self.a = torch.jit.script(nn.Linear(8, 4))

    def forward(self, x):
        return self.a(x)


class Spectral(nn.Module):
    """spectral_norm's hook makes its weight, a plain attribute, from a
    trained parameter (and updates buffers that it reads)."""

    def __init__(self):
        super().__init__()
        self.a = nn.utils.spectral_norm(nn.Linear(8, 4))

    def forward(self, x):
        return self.a(x)


class Decay(nn.Module):
    """Updates a buffer in place and reads what it wrote."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 4)
        self.register_buffer('s', torch.ones(4))

    def forward(self, x):
        self.s.mul_(0.9)
        return self.lin(x) * self.s


class Cached(nn.Module):
    """Keeps a reference of its own to a parameter, past functional_call."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 4)
        self.w = [self.lin.weight]

    def forward(self, x):
        return torch.nn.functional.linear(x, self.w[0], self.lin.bias)


class Branchy(nn.Module):
    """Control flow on a tensor's value: no fixed graph."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 4)

    def forward(self, x):
        h = self.lin(x)
        return h * 2 if h.sum() > 0 else h


class Masked(nn.Module):
    """Boolean-mask indexing: a shape that depends on the data."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 4)

    def forward(self, x):
        h = self.lin(x)
        return h[h > 0].sum().expand(x.shape[0], 4)


class DictOut(nn.Module):
    """Per-pixel logits in a dict, as torchvision's segmentation models
    return them ('out', beside an auxiliary head's 'aux')."""

    def __init__(self):
        super().__init__()
        self.convs = nn.ModuleList(nn.Conv2d(3 if i == 0 else 8, 8, 3,
                                             padding=1) for i in range(3))
        self.head = nn.Conv2d(8, 4, 1)

    def forward(self, x):
        for conv in self.convs:
            x = torch.relu(conv(x))
        return {'out': self.head(x), 'aux': x}


class DictNoLogits(nn.Module):
    """A dict with no logits in it."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 4)

    def forward(self, x):
        return {'scores': self.lin(x)}
EOF
cd "$TMP"       # --module imports from the current directory
mistake "data-dependent control flow" "$EXPORT" --module usermodels:Branchy \
    --input-shape 4,8 --num-classes 4 -o "$TMP/x.xml"
said "data-dependent control flow: said so" "the step cannot be traced into a fixed graph: Python code reads a tensor value"
mistake "boolean-mask indexing" "$EXPORT" --module usermodels:Masked \
    --input-shape 4,8 --num-classes 4 -o "$TMP/x.xml"
# Constant tensors of the trace (Swin's index tables; a traceback, and
# --shapes-only recursed without end): resident for the whole step, like
# the parameters, in the graph and in the executor, with or without values.
# Recurrent layers and tied weights (their gradients were lost: the trace
# read them as constants), frozen parameters and the model's own
# torch.utils.checkpoint (both failed to trace), and tensors kept as plain
# attributes (--shapes-only failed) make the whole round trip too.
for spec in Consts:4,8:90 Recurrent:4,12,8:80 Tied:4,8:100 Frozen:4,3,8,8:100 \
    Checkpointed:4,8:100 PlainAttr:4,8:100 DictOut:2,3,16,16:80; do
	cls=${spec%%:*}
	shape=${spec#*:}
	pct=${shape#*:}
	shape=${shape%:*}
	for so in "" --shapes-only; do
		"$PY" "$EXPORT" --module usermodels:$cls --input-shape "$shape" --num-classes 4 \
		    --cost-model roofline:a100 $so -o "$TMP/$cls$so.xml" >/dev/null 2>"$TMP/err" &&
		    pass "$cls: exports${so:+ ($so)}" ||
		    fail "$cls${so:+ ($so)}: $(tail -1 "$TMP/err")"
	done
	cmp -s "$TMP/$cls.xml" "$TMP/$cls--shapes-only.xml" &&
	    pass "$cls: --shapes-only writes the same graph" ||
	    fail "$cls: --shapes-only writes another graph"
	"$RP" --graph "$TMP/$cls.xml" --budget $pct% -t 2 -o "$TMP/$cls-plan.xml" >/dev/null 2>&1
	line=$("$PY" "$EXEC" --graph "$TMP/$cls.xml" --plan "$TMP/$cls-plan.xml" \
	    --repeat 1 2>"$TMP/err" | grep -E '^(OK|FAILED): ')
	check_line "$cls at $pct%" "$line" \
	    "$(sed -n 's/.*budget="\([0-9]*\)".*/\1/p' "$TMP/$cls-plan.xml" | head -1)" \
	    "remat-exec: $(tail -1 "$TMP/err")"
done
# torchvision's segmentation models (logits per pixel in a dict, an
# untrained backbone: nothing to download), here on fake tensors.
"$PY" "$EXPORT" --model lraspp_mobilenet_v3_large --batch 2 --size 32 \
    --num-classes 3 --shapes-only --cost-model roofline:a100 \
    -o "$TMP/lraspp.xml" >/dev/null 2>"$TMP/err" &&
    "$RP" --graph "$TMP/lraspp.xml" --info | grep -q '^graph lraspp_mobilenet_v3_large-b2-s32: ' &&
    pass "a torchvision segmentation model (LR-ASPP) exports" ||
    fail "LR-ASPP: $(tail -1 "$TMP/err")"
# A torchvision model's input given whole: images that are not square,
# recorded in the graph without a size, from which remat-exec rebuilds
# the step; a video model's clips (B,3,T,H,W), here on fake tensors.
"$PY" "$EXPORT" --model resnet18 --input-shape 2,3,32,48 --num-classes 4 \
    --repeat 1 -o "$TMP/rect.xml" >/dev/null 2>"$TMP/err" &&
    "$RP" --graph "$TMP/rect.xml" --budget 100% -s checkpoint-all \
    -o "$TMP/rect-plan.xml" >/dev/null 2>&1 &&
    "$PY" "$EXEC" --graph "$TMP/rect.xml" --plan "$TMP/rect-plan.xml" \
    --repeat 1 2>"$TMP/err" | grep -q '^OK: gradients identical' &&
    grep -q '<data key="name">resnet18-2x3x32x48</data>' "$TMP/rect.xml" &&
    ! grep -q '<data key="size">' "$TMP/rect.xml" &&
    pass "ResNet-18 on 32x48 images (--input-shape): exported, replayed exactly" ||
    fail "ResNet-18 on 32x48 images: $(tail -1 "$TMP/err")"
"$PY" "$EXPORT" --model mc3_18 --input-shape 1,3,4,32,32 --num-classes 4 \
    --shapes-only --cost-model roofline:a100 -o "$TMP/clip.xml" >/dev/null 2>"$TMP/err" &&
    "$RP" --graph "$TMP/clip.xml" --info | grep -q '^graph mc3_18-1x3x4x32x32: ' &&
    pass "a torchvision video model (MC3-18) exports" ||
    fail "MC3-18: $(tail -1 "$TMP/err")"
mistake "a video model without its clips' shape" "$EXPORT" --model mc3_18 \
    --batch 2 --size 32 -o "$TMP/x.xml"
said "a video model without its clips' shape: said so" "^remat-export: mc3_18 takes a batch of clips: give --input-shape B,3,T,H,W$"
mistake "clips for an image model" "$EXPORT" --model resnet18 \
    --input-shape 2,3,4,32,32 -o "$TMP/x.xml"
said "clips for an image model: said so" "^remat-export: resnet18 takes a batch of images: give --input-shape B,3,H,W$"
mistake "a ViT on images that are not square" "$EXPORT" --model vit_b_16 \
    --input-shape 2,3,32,48 -o "$TMP/x.xml"
said "a ViT on images that are not square: said so" "^remat-export: vit_b_16 takes square images only, not 32x48$"
mistake "--input-shape with --size" "$EXPORT" --model resnet18 \
    --input-shape 2,3,32,48 --size 32 -o "$TMP/x.xml"
[ "$rc" = 2 ] && pass "--input-shape with --size: status 2" ||
    fail "--input-shape with --size: status $rc"
mistake "a dict of outputs without logits" "$EXPORT" --module usermodels:DictNoLogits \
    --input-shape 4,8 --num-classes 4 -o "$TMP/x.xml"
said "a dict of outputs without logits: its keys named" "returns a dict without a tensor of logits as 'out' or 'logits' (keys: scores)"
mistake "a module that reads a parameter past functional_call" "$EXPORT" \
    --module usermodels:Cached --input-shape 4,8 --num-classes 4 -o "$TMP/x.xml"
said "a module that reads a parameter past functional_call: said so" "reads lin.weight of the model directly"
mistake "spectral_norm" "$EXPORT" --module usermodels:Spectral --input-shape 4,8 \
    --num-classes 4 -o "$TMP/x.xml"
said "spectral_norm: its weight named" "keeps a.weight, made from a trained parameter"
mistake "a buffer updated and read" "$EXPORT" --module usermodels:Decay --input-shape 4,8 \
    --num-classes 4 -o "$TMP/x.xml"
said "a buffer updated and read: named" "updates buffer s in place and the step reads what it wrote"
mistake "a plain attribute sharing a trained weight" "$EXPORT" --module usermodels:AliasAttr \
    --input-shape 4,8 --num-classes 4 -o "$TMP/x.xml"
said "a plain attribute sharing a trained weight: named" "keeps wt, made from a trained parameter"
mistake "a TorchScript submodule" "$EXPORT" --module usermodels:Scripted --input-shape 4,8 \
    --num-classes 4 -o "$TMP/x.xml"
said "a TorchScript submodule: named" "submodule a is a TorchScript module"
# The user's module is their code: a syntax error in it, an exception at
# its import or a constructor's message of several lines is one line too.
printf 'def f(:\n' >"$TMP/synerr.py"
mistake "a --module with a syntax error" "$EXPORT" --module synerr:Net \
    --input-shape 4,8 --num-classes 4 -o "$TMP/x.xml"
said "a --module with a syntax error: its file and line" "cannot load synerr:Net: .*(synerr.py, line 1)$"
printf 'raise RuntimeError("at import")\n' >"$TMP/raises.py"
mistake "a --module that raises at its import" "$EXPORT" --module raises:Net \
    --input-shape 4,8 --num-classes 4 -o "$TMP/x.xml"
said "a --module that raises at its import: said so" "cannot load raises:Net: RuntimeError: at import$"
printf 'class Net:\n    def __init__(self):\n        raise ValueError("one\\ntwo")\n' \
    >"$TMP/badinit.py"
mistake "a --module class that fails" "$EXPORT" --module badinit:Net \
    --input-shape 4,8 --num-classes 4 -o "$TMP/x.xml"
[ "$(cat "$TMP/err")" = "remat-export: badinit:Net() failed: one" ] &&
    pass "a --module class that fails: its message's first line alone" ||
    fail "a --module class that fails: $(cat "$TMP/err")"
cd "$OLDPWD" || exit 1
mistake "fp16 autocast on the CPU" "$EXPORT" --model gpt --autocast fp16 -o "$TMP/x.xml"
"$RP" --graph "$SRC/graphs/unet.xml" --budget 16G -s chain-dp -o "$TMP/unet-plan.xml" \
    >/dev/null 2>&1
mistake "checking a plan for a step larger than this machine" "$EXEC" \
    --graph "$SRC/graphs/unet.xml" --plan "$TMP/unet-plan.xml" --device-memory 20000000000
grep -q "traces the step keeping all its values" "$TMP/err" &&
    pass "a step larger than this machine is refused before it is traced" ||
    fail "remat-exec on graphs/unet.xml: $(tail -1 "$TMP/err")"
mistake "shapes only without a cost model" "$EXPORT" --model gpt --shapes-only -o "$TMP/x.xml"
mistake "unknown accelerator" "$EXPORT" --model gpt --cost-model roofline:tpu -o "$TMP/x.xml"
[ -e "$TMP/x.xml" ] && fail "a failed export left $TMP/x.xml" ||
    pass "a failed export leaves no file"
if [ -s "$TMP/mlp.xml" ] && [ -s "$TMP/smallcnn.xml" ]; then
	"$RP" --graph "$TMP/mlp.xml" --budget 100% -s checkpoint-all \
	    -o "$TMP/mlp-plan.xml" >/dev/null 2>&1
	mistake "graph of another model" "$EXEC" --model smallcnn \
	    --graph "$TMP/mlp.xml" --plan "$TMP/mlp-plan.xml"
	mistake "plan of another graph" "$EXEC" --graph "$TMP/smallcnn.xml" \
	    --plan "$TMP/mlp-plan.xml"
	# An invalid plan is named in the message (with several plans, which
	# one): the second compute into the first one's register, still live.
	awk '/<compute/ { n++; if (n == 1) { match($0, /reg="[^"]*"/); r = substr($0, RSTART, RLENGTH) }
	    if (n == 2) sub(/reg="[^"]*"/, r) } { print }' "$TMP/mlp-plan.xml" >"$TMP/mlp-bad.xml"
	mistake "an invalid plan" "$EXEC" --graph "$TMP/mlp.xml" --plan "$TMP/mlp-plan.xml" \
	    --plan "$TMP/mlp-bad.xml"
	line=$(grep -n '<compute' "$TMP/mlp-bad.xml" | sed -n '2s/:.*//p')
	said "an invalid plan: the message names its file and line" "^remat-exec: $TMP/mlp-bad.xml: line $line: plan computes .* into register '[^']*', which is still live$"
	"$RP" --graph "$SRC/graphs/unet-3.xml" --budget 100% -s checkpoint-all \
	    -o "$TMP/unet-3-plan.xml" >/dev/null 2>&1
	mistake "a graph that records no model" "$EXEC" --graph "$SRC/graphs/unet-3.xml" \
	    --plan "$TMP/unet-3-plan.xml"
	grep -q "graphs/unet-3.xml records no model: give --model NAME or --module PKG.MOD:CLASS" "$TMP/err" &&
	    pass "a graph that records no model: the message names it" ||
	    fail "a graph that records no model: $(tail -1 "$TMP/err")"
	# A loss given where the graph was exported with the default one
	# (remat-export records only what differs from the defaults): it
	# checked another step than the graph's, and said OK.
	printf 'import torch.nn.functional as F\ndef sumloss(o, y):\n    return F.cross_entropy(o, y, reduction="sum")\n' \
	    >"$TMP/myloss.py"
	cd "$TMP"
	mistake "a loss the graph was not exported with" "$EXEC" \
	    --graph "$TMP/mlp.xml" --plan "$TMP/mlp-plan.xml" --loss myloss:sumloss
	cd "$OLDPWD" || exit 1
	grep -q "mlp.xml was exported with the default loss, not myloss:sumloss" "$TMP/err" &&
	    pass "a loss the graph was not exported with: said so" ||
	    fail "a loss the graph was not exported with: $(tail -1 "$TMP/err")"
	# Files remat-plan(5) says readers refuse: another plan version, an
	# empty register name, an entity declaration, a cost that is not a
	# number (each ran and said OK).
	sed 's/version="1"/version="2"/' "$TMP/mlp-plan.xml" >"$TMP/bad-v.xml"
	mistake "a plan of format version 2" "$EXEC" --graph "$TMP/mlp.xml" --plan "$TMP/bad-v.xml"
	sed '0,/reg="[^"]*"/s//reg=""/' "$TMP/mlp-plan.xml" >"$TMP/bad-r.xml"
	mistake "an empty register name" "$EXEC" --graph "$TMP/mlp.xml" --plan "$TMP/bad-r.xml"
	sed '1a <!DOCTYPE plan [<!ENTITY e "x">]>' "$TMP/mlp-plan.xml" >"$TMP/bad-e.xml"
	mistake "an entity declaration" "$EXEC" --graph "$TMP/mlp.xml" --plan "$TMP/bad-e.xml"
	sed '0,/<data key="cost">[^<]*</s//<data key="cost">nan</' "$TMP/mlp.xml" >"$TMP/bad-c.xml"
	mistake "a cost that is not a number" "$EXEC" --graph "$TMP/bad-c.xml" --plan "$TMP/mlp-plan.xml"
	# ... with the line (the graph was read with ElementTree, which has
	# none), also where the file is not the traced step
	line=$(grep -n '<data key="cost">nan<' "$TMP/bad-c.xml" | sed 's/:.*//')
	said "a cost that is not a number: the message names the line" "^remat-exec: $TMP/bad-c.xml: line $line: node '[^']*': cost 'nan' is not a finite number"
	# An encoding expat cannot read (UTF-7) was a ValueError traceback,
	# for the graph and for the plan.
	sed '1s/UTF-8/UTF-7/' "$TMP/mlp.xml" >"$TMP/bad-u.xml"
	mistake "a graph in UTF-7" "$EXEC" --graph "$TMP/bad-u.xml" --plan "$TMP/mlp-plan.xml"
	sed '1s/UTF-8/UTF-7/' "$TMP/mlp-plan.xml" >"$TMP/bad-up.xml"
	mistake "a plan in UTF-7" "$EXEC" --graph "$TMP/mlp.xml" --plan "$TMP/bad-up.xml"
	# Nesting past libxml2's 257 levels, which remat-plan refuses, was
	# read (the graph reader refused it, the plan reader did not).
	awk '1; NR == 2 { for (i = 0; i < 300; i++) printf "<x:d xmlns:x=\"urn:x\">"
	    print ""; for (i = 0; i < 300; i++) printf "</x:d>"; print "" }' \
	    "$TMP/mlp-plan.xml" >"$TMP/bad-deep.xml"
	mistake "a plan nested 300 deep" "$EXEC" --graph "$TMP/mlp.xml" --plan "$TMP/bad-deep.xml"
	said "a plan nested 300 deep: refused as remat-plan refuses it" "bad-deep.xml: line [0-9]*: elements nested more than 257 deep"
	# A plan that frees an output before its end, or never computes a
	# node, is invalid (remat-plan(5)); remat-exec ran the first and said
	# OK, and said the second's gradients differ.
	"$PY" -c "import re, sys
g, p = open(sys.argv[1]).read(), open(sys.argv[2]).read()
outs = set(re.findall(r'<node id=\"([^\"]*)\">(?:(?!</node>).)*<data key=\"out\">true<', g, re.S))
comp = re.findall(r'<compute node=\"([^\"]*)\" reg=\"([^\"]*)\"/>', p)
freed = set(re.findall(r'<free reg=\"([^\"]*)\"/>', p))
node, reg = [(n, r) for n, r in comp if n in outs and r not in freed][-1]
open(sys.argv[3], 'w').write(p.replace('</plan>', '  <free reg=\"%s\"/>\n</plan>' % reg))
open(sys.argv[4], 'w').write(p.replace('  <compute node=\"%s\" reg=\"%s\"/>\n' % (node, reg), ''))
print(node)" "$TMP/mlp.xml" "$TMP/mlp-plan.xml" "$TMP/bad-free.xml" "$TMP/bad-none.xml" >"$TMP/outnode"
	o=$(cat "$TMP/outnode")
	mistake "a plan that frees an output" "$EXEC" --graph "$TMP/mlp.xml" --plan "$TMP/bad-free.xml"
	[ "$rc" = 2 ] && said "a plan that frees an output: status 2, said" "^remat-exec: $TMP/bad-free.xml: output node '$o' is not live at the end of the plan$" ||
	    fail "a plan that frees an output: status $rc"
	mistake "a plan that never computes a node" "$EXEC" --graph "$TMP/mlp.xml" --plan "$TMP/bad-none.xml"
	[ "$rc" = 2 ] && said "a plan that never computes a node: status 2, said" "^remat-exec: $TMP/bad-none.xml: node '$o' is never computed$" ||
	    fail "a plan that never computes a node: status $rc"
	# Read as remat-plan reads them: a NUL byte (UTF-16) refused, digits
	# in ASCII only, a plan's statement named with its file.
	iconv -f UTF-8 -t UTF-16 "$TMP/mlp.xml" >"$TMP/bad-16.xml"
	mistake "a graph in UTF-16" "$EXEC" --graph "$TMP/bad-16.xml" --plan "$TMP/mlp-plan.xml"
	said "a graph in UTF-16: refused as remat-plan refuses it" "bad-16.xml: line 1: a NUL byte in the file"
	sed '0,/<data key="mem">\([0-9]*\)\([0-9]\)</s//<data key="mem">\1_\2</' "$TMP/mlp.xml" >"$TMP/bad-m.xml"
	mistake "a mem with an underscore" "$EXEC" --graph "$TMP/bad-m.xml" --plan "$TMP/mlp-plan.xml"
	sed '0,/<compute node="[^"]*"/s//<compute node="nosuch"/' "$TMP/mlp-plan.xml" >"$TMP/bad-n.xml"
	mistake "a plan computing no node of the graph" "$EXEC" --graph "$TMP/mlp.xml" --plan "$TMP/bad-n.xml"
	said "a plan computing no node of the graph: its file and line named" "^remat-exec: $TMP/bad-n.xml: line [0-9]*: plan computes 'nosuch'"
	# A recorded model that is no model was checked against the traced
	# step's attributes ("exported with input_shape ..."): named at its line.
	sed 's|<data key="model">mlp<|<data key="model">mlpNet<|' "$TMP/mlp.xml" >"$TMP/bad-mo.xml"
	mistake "an unknown recorded model" "$EXEC" --graph "$TMP/bad-mo.xml" --plan "$TMP/mlp-plan.xml"
	line=$(grep -n '<data key="model">mlpNet<' "$TMP/bad-mo.xml" | sed 's/:.*//')
	said "an unknown recorded model: the graph's line named" "^remat-exec: $TMP/bad-mo.xml: line $line: unknown model 'mlpNet' recorded"
	# --budget takes remat-plan's units (it took plain integers only).
	"$PY" "$EXEC" --graph "$TMP/mlp.xml" --plan "$TMP/mlp-plan.xml" --budget 1M \
	    >"$TMP/out" 2>"$TMP/err" &&
	    tail -1 "$TMP/out" | grep -q "^OK: .*budget 1048576 B" &&
	    pass "remat-exec --budget 1M: 1048576 bytes" ||
	    fail "remat-exec --budget 1M: $(tail -1 "$TMP/err") $(tail -1 "$TMP/out")"
	mistake "a budget in an unknown unit" "$EXEC" --graph "$TMP/mlp.xml" \
	    --plan "$TMP/mlp-plan.xml" --budget 1Q
	[ "$rc" = 2 ] && pass "a budget in an unknown unit: status 2" ||
	    fail "a budget in an unknown unit: status $rc"
	# A recorded loss not of the form PKG.MOD:FN was blamed on --loss,
	# which was not given: the graph's line is named.
	sed 's|<data key="name">|<data key="loss">nocolon</data><data key="name">|' "$TMP/mlp.xml" >"$TMP/bad-l.xml"
	mistake "a bad recorded loss" "$EXEC" --graph "$TMP/bad-l.xml" --plan "$TMP/mlp-plan.xml"
	line=$(grep -n '<data key="loss">nocolon<' "$TMP/bad-l.xml" | sed 's/:.*//')
	said "a bad recorded loss: the graph's line named" "^remat-exec: $TMP/bad-l.xml: line $line: bad loss 'nocolon' recorded"
	# A statement whose prefix names no namespace is a name of its own, an
	# extension that is not run (remat-plan(5)); expat's namespace mode
	# refused the whole plan.
	sed '2a <x:compute node="nosuch" reg="q"/>' "$TMP/mlp-plan.xml" >"$TMP/ext.xml"
	"$PY" "$EXEC" --graph "$TMP/mlp.xml" --plan "$TMP/ext.xml" >"$TMP/out" 2>"$TMP/err" &&
	    tail -1 "$TMP/out" | grep -q '^OK: ' &&
	    pass "a plan with an element of an undeclared prefix: run without it, as remat-plan does" ||
	    fail "a plan with an element of an undeclared prefix: $(tail -1 "$TMP/err")"
	sed '0,/<data key="op">[^<]*</s//<data key="op">aten.bogus</' "$TMP/mlp.xml" >"$TMP/bad-o.xml"
	mistake "a graph that is not the traced step" "$EXEC" --graph "$TMP/bad-o.xml" \
	    --plan "$TMP/mlp-plan.xml"
	line=$(awk '/<node / { n = NR } /aten.bogus/ { print n; exit }' "$TMP/bad-o.xml")
	said "a graph that is not the traced step: the message names the node's line" "^remat-exec: $TMP/bad-o.xml: line $line: node [^ ]*: op aten.bogus in the file, .* traced: the graph does not match the traced step of mlp"
	# A plan that computes nothing: the first node it never computes is
	# named (it said "a computation reads", then what the step's results
	# read).
	printf '<?xml version="1.0"?>\n<plan version="1" budget="1000000"/>\n' \
	    >"$TMP/bad-0.xml"
	mistake "a plan that computes nothing" "$EXEC" --graph "$TMP/mlp.xml" --plan "$TMP/bad-0.xml"
	grep -q "bad-0.xml: node '[^']*' is never computed$" "$TMP/err" &&
	    pass "a plan that computes nothing: a node it never computes named" ||
	    fail "a plan that computes nothing: $(tail -1 "$TMP/err")"
	sed 's/budget="[0-9]*"/budget="-5"/' "$TMP/mlp-plan.xml" >"$TMP/bad-b.xml"
	mistake "a negative budget in the plan" "$EXEC" --graph "$TMP/mlp.xml" --plan "$TMP/bad-b.xml"
	grep -q "bad-b.xml: budget '-5' is not a number of bytes" "$TMP/err" &&
	    pass "a negative budget in the plan: said so" ||
	    fail "a negative budget in the plan: $(tail -1 "$TMP/err")"
	mistake "a negative learning rate" "$EXEC" --graph "$TMP/mlp.xml" \
	    --plan "$TMP/mlp-plan.xml" --steps 1 --lr -1
	[ "$rc" = 2 ] && pass "a negative learning rate: status 2" ||
	    fail "a negative learning rate: status $rc"
fi
# A seed past PyTorch's 64 bits and a batch this machine cannot hold: one
# line each, not a traceback.
mistake "a seed past 64 bits" "$EXPORT" --model mlp --size 8 \
    --seed 99999999999999999999999 -o "$TMP/x.xml"
mistake "a batch too large to build" "$EXPORT" --model mlp --size 16 \
    --batch 100000000 -o "$TMP/x.xml"
# The graph is written through a symbolic link (the link stays) and into a
# FIFO (not replaced by a file), as remat-plan writes its plans.
if [ -s "$TMP/mlp.xml" ]; then
	echo old >"$TMP/target.xml"
	ln -sf target.xml "$TMP/link.xml"
	"$PY" "$EXPORT" --model mlp --batch 2 --size 16 --repeat 1 \
	    -o "$TMP/link.xml" >/dev/null 2>&1
	[ -L "$TMP/link.xml" ] && grep -q '<graphml' "$TMP/target.xml" &&
	    pass "remat-export -o a symbolic link: the target written, the link kept" ||
	    fail "remat-export -o a symbolic link: $(ls -l "$TMP/link.xml" "$TMP/target.xml")"
	rm -f "$TMP/link.xml" "$TMP/target.xml"
fi

# remat-maxbatch: each strategy's largest batch fits the budget (its kept
# graph planned again), and the next batch size does not.
MAXB="$BUILD/tools/remat-maxbatch"
if "$PY" "$MAXB" --model smallcnn --size 16 --budget 4M --time-limit 2 \
    --strategy checkpoint-all,dtr,chain-dp --repeat 1 --format csv \
    --keep "$TMP/mb" --remat-plan "$RP" >"$TMP/mb.csv" 2>"$TMP/err"; then
	bad=
	while IFS=, read -r s b ov tp; do
		[ "$s" = strategy ] && continue
		[ -n "$b" ] && [ "$b" -gt 0 ] || { bad="$bad $s:none"; continue; }
		"$RP" --graph "$TMP/mb/batch-$b.xml" --budget 4M -s "$s" -t 2 \
		    >/dev/null 2>&1 || bad="$bad $s:no-fit-at-$b"
		[ -f "$TMP/mb/batch-$((b + 1)).xml" ] || bad="$bad $s:batch-$((b + 1))-not-tried"
		"$RP" --graph "$TMP/mb/batch-$((b + 1)).xml" --budget 4M -s "$s" \
		    -t 2 >/dev/null 2>&1
		[ $? = 1 ] || bad="$bad $s:fits-at-$((b + 1))"
	done <"$TMP/mb.csv"
	ck=$(awk -F, '$1 == "checkpoint-all" { print $2 }' "$TMP/mb.csv")
	dt=$(awk -F, '$1 == "dtr" { print $2 }' "$TMP/mb.csv")
	[ -z "$bad" ] && [ "$(wc -l <"$TMP/mb.csv")" = 4 ] && [ "$dt" -gt "$ck" ] &&
	    pass "remat-maxbatch: the largest batch of each strategy fits, the next does not (checkpoint-all $ck, dtr $dt)" ||
	    fail "remat-maxbatch:$bad
$(cat "$TMP/mb.csv")"
else
	fail "remat-maxbatch failed: $(tail -1 "$TMP/err")"
fi
"$PY" "$MAXB" --model smallcnn --budget 50% >/dev/null 2>"$TMP/err"
[ $? = 2 ] && [ "$(cat "$TMP/err")" = "remat-maxbatch: --budget must be bytes (a percentage depends on the batch) (see --help)" ] &&
    pass "remat-maxbatch: a percentage budget is a usage error" ||
    fail "remat-maxbatch --budget 50%: $(cat "$TMP/err")"
"$PY" "$MAXB" --model smallcnn --budget 1x --remat-plan "$RP" >/dev/null 2>"$TMP/err"
[ $? = 2 ] && grep -q "^remat-maxbatch: budget '1x' has an unknown unit" "$TMP/err" &&
    pass "remat-maxbatch: a bad budget is refused before any export" ||
    fail "remat-maxbatch --budget 1x: $(cat "$TMP/err")"
"$PY" "$MAXB" --model smallcnn --budget 1G --remat-plan "$TMP/no-such-program" \
    >/dev/null 2>"$TMP/err"
[ $? = 2 ] && [ "$(cat "$TMP/err")" = "remat-maxbatch: --remat-plan $TMP/no-such-program is not an executable file" ] &&
    pass "remat-maxbatch: a --remat-plan that is not a program, in one line" ||
    fail "remat-maxbatch --remat-plan missing: $(tail -1 "$TMP/err")"
# --budget min is remat-plan's (it was passed on, and the CSV read back
# without a status column was a traceback).
"$PY" "$MAXB" --model smallcnn --budget min --remat-plan "$RP" >/dev/null 2>"$TMP/err"
[ $? = 2 ] && grep -q "^remat-maxbatch: --budget must be bytes (remat-maxbatch searches the batch for a fixed budget; --budget min is remat-plan's)" "$TMP/err" &&
    pass "remat-maxbatch: --budget min is a usage error" ||
    fail "remat-maxbatch --budget min: $(cat "$TMP/err")"
# A batch size that cannot be planned after smaller ones could (the
# host's memory, most often; here a remat-plan that fails at batch 4):
# the sizes found stand, said so (it was exit 2 and no table).
printf '#!/bin/sh\ncase "$*" in *batch-4.xml*) echo "remat-plan: out of memory" >&2; exit 4;; esac\nexec "%s" "$@"\n' "$RP" >"$TMP/rp-fails"
chmod +x "$TMP/rp-fails"
"$PY" "$MAXB" --model smallcnn --size 16 --budget 1G --time-limit 1 \
    --strategy checkpoint-all --repeat 1 --remat-plan "$TMP/rp-fails" \
    >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 0 ] && grep -q "^checkpoint-all  *2 " "$TMP/out" &&
    [ "$(tail -1 "$TMP/out")" = "batch 4 could not be exported and planned (remat-plan failed on batch 4: out of memory): the largest batch of checkpoint-all is at least the one shown (--max-batch below 4 searches the sizes under it)" ] &&
    pass "remat-maxbatch: a larger batch that fails leaves what smaller ones found, said so" ||
    fail "remat-maxbatch with a failing batch: status $rc, $(cat "$TMP/out") $(tail -1 "$TMP/err")"
# remat-exec's --budget is read as remat-plan reads a budget: 0 and a
# fraction of a byte refused (0 ran the whole step, then said it was over
# the budget), B taken (it was refused).
for b in "0:must be at least 1 byte" "1.5:is not a whole number of bytes"; do
	"$PY" "$EXEC" --model smallcnn --graph /dev/null --plan /dev/null \
	    --budget "${b%%:*}" >/dev/null 2>"$TMP/err"
	[ $? = 2 ] && [ "$(cat "$TMP/err")" = "remat-exec: argument --budget: '${b%%:*}' ${b#*:} (see --help)" ] &&
	    pass "remat-exec --budget ${b%%:*}: a usage error" ||
	    fail "remat-exec --budget ${b%%:*}: $(tail -1 "$TMP/err")"
done
# (taken: the next thing refused is the graph)
"$PY" "$EXEC" --model smallcnn --graph /dev/null --plan /dev/null \
    --budget 100B >/dev/null 2>"$TMP/err"
[ "$(cat "$TMP/err")" = "remat-exec: cannot read graph /dev/null: not a regular file" ] &&
    pass "remat-exec --budget 100B: taken, as remat-plan takes it" ||
    fail "remat-exec --budget 100B: $(tail -1 "$TMP/err")"
# An empty --strategy is remat-plan's usage error (it meant every
# strategy), and remat-export's -o - a mistake (it wrote a file named -).
"$PY" "$MAXB" --model smallcnn --budget 1G --strategy '' --remat-plan "$RP" \
    >/dev/null 2>"$TMP/err"
[ $? = 2 ] && [ "$(cat "$TMP/err")" = "remat-maxbatch: --strategy '' has an empty item (see --help)" ] &&
    pass "remat-maxbatch: an empty --strategy is a usage error" ||
    fail "remat-maxbatch --strategy '': $(cat "$TMP/err")"
(cd "$TMP" && "$PY" "$EXPORT" --model mlp -o - >/dev/null 2>"$TMP/err")
[ $? = 2 ] && [ ! -e "$TMP/-" ] && grep -q "^remat-export: -o needs a file name (the graph is not written to standard output" "$TMP/err" &&
    pass "remat-export -o -: a usage error, no file named -" ||
    fail "remat-export -o -: $(cat "$TMP/err")"
# ... or a program that is not remat-plan, and an unknown strategy: both
# before any export (they came after the first batch's).
"$PY" "$MAXB" --model smallcnn --budget 1G --remat-plan /bin/false \
    >/dev/null 2>"$TMP/err"
[ $? = 2 ] && [ "$(cat "$TMP/err")" = "remat-maxbatch: --remat-plan /bin/false does not work as remat-plan: on /dev/null as a graph it exited with status 1, not 3" ] &&
    pass "remat-maxbatch: a --remat-plan that is not remat-plan, in one line" ||
    fail "remat-maxbatch --remat-plan /bin/false: $(tail -1 "$TMP/err")"
"$PY" "$MAXB" --model smallcnn --budget 1G --strategy nosuch --remat-plan "$RP" \
    >/dev/null 2>"$TMP/err"
[ $? = 2 ] && grep -q "^remat-maxbatch: unknown strategy 'nosuch'" "$TMP/err" &&
    ! grep -q "exporting" "$TMP/err" &&
    pass "remat-maxbatch: an unknown strategy, before any export" ||
    fail "remat-maxbatch --strategy nosuch: $(cat "$TMP/err")"
# The model options are checked before anything is made or run: no
# progress line, no --keep directory (they were checked at the first
# export), and a message that names remat-maxbatch's options.
"$PY" "$MAXB" --budget 4M --keep "$TMP/keep-none" --remat-plan "$RP" \
    >/dev/null 2>"$TMP/err"
[ $? = 2 ] && [ "$(cat "$TMP/err")" = "remat-maxbatch: give exactly one of --model NAME and --module PKG.MOD:CLASS (see --help)" ] &&
    [ ! -e "$TMP/keep-none" ] &&
    pass "remat-maxbatch: no model, before anything is made" ||
    fail "remat-maxbatch without a model: $(cat "$TMP/err")"
"$PY" "$MAXB" --model mlp --size 8 --input-shape 2,3,8,8 --budget 4M --remat-plan "$RP" \
    >/dev/null 2>"$TMP/err"
[ $? = 2 ] && grep -q "^remat-maxbatch: --input-shape takes the place of --size (its batch dimension is what is searched)" "$TMP/err" &&
    pass "remat-maxbatch: --input-shape with --size, told they do not go together" ||
    fail "remat-maxbatch --model --input-shape: $(cat "$TMP/err")"
# A torchvision model's input given whole: its first dimension is the
# batch searched, the rest kept (images that are not square here).
"$PY" "$MAXB" --model resnet18 --input-shape 1,3,32,48 --budget 120M \
    --max-batch 4 --time-limit 1 --strategy checkpoint-all --repeat 1 \
    --format csv --keep "$TMP/mbshape" --remat-plan "$RP" >"$TMP/out" 2>"$TMP/err" &&
    grep -q '^checkpoint-all,4,' "$TMP/out" &&
    grep -q '<data key="name">resnet18-4x3x32x48</data>' "$TMP/mbshape/batch-4.xml" &&
    pass "remat-maxbatch: --input-shape with a torchvision model searches its first dimension" ||
    fail "remat-maxbatch --model resnet18 --input-shape: $(tail -1 "$TMP/err")"
touch "$TMP/a-file"
"$PY" "$MAXB" --model smallcnn --budget 1G --keep "$TMP/a-file" --remat-plan "$RP" \
    >/dev/null 2>"$TMP/err"
[ $? = 2 ] && [ "$(cat "$TMP/err")" = "remat-maxbatch: cannot make --keep directory $TMP/a-file: File exists" ] &&
    pass "remat-maxbatch: a --keep that is a file, in one line" ||
    fail "remat-maxbatch --keep onto a file: $(tail -1 "$TMP/err")"
"$PY" "$MAXB" --model smallcnn --size 16 --budget 1K --repeat 1 --remat-plan "$RP" \
    >"$TMP/out" 2>"$TMP/err"
[ $? = 1 ] && [ ! -s "$TMP/out" ] &&
    tail -1 "$TMP/err" | grep -q "^remat-maxbatch: no strategy fits batch 1: budget 1.00 KiB (1024 bytes) is below the smallest budget any plan can need" &&
    pass "remat-maxbatch: a budget below any plan's: why, and no empty table" ||
    fail "remat-maxbatch --budget 1K: $(tail -1 "$TMP/err") $(cat "$TMP/out")"
# SIGTERM mid-search: status 143 and its work directory removed (Python
# runs no finally clause for a signal it does not handle: it was left).
mkdir "$TMP/mbtmp"
TMPDIR="$TMP/mbtmp" "$PY" "$MAXB" --model mlp --size 16 --budget 1M --time-limit 1 \
    --repeat 1 --remat-plan "$RP" >/dev/null 2>&1 &
mb=$!
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	ls "$TMP/mbtmp"/remat-maxbatch.*/batch-*.xml >/dev/null 2>&1 && break
	sleep 0.5
done
kill -TERM $mb
wait $mb
rc=$?
[ "$rc" = 143 ] && [ -z "$(ls "$TMP/mbtmp")" ] &&
    pass "remat-maxbatch on SIGTERM: status 143, its work directory removed" ||
    fail "remat-maxbatch on SIGTERM: status $rc, left $(ls "$TMP/mbtmp")"
rm -rf "$TMP/mbtmp"

# Help, and mistakes on the command line or in the files, come before
# PyTorch is loaded (at once, not after a second or two): no_torch STATUS
# TOOL ARGS.
no_torch() {
	want=$1
	shift
	"$PY" -X importtime "$@" >/dev/null 2>"$TMP/err"
	rc=$?
	if grep -q '| *torch$' "$TMP/err"; then
		fail "${1##*/} $2 ...: PyTorch was loaded"
	elif [ "$rc" != "$want" ]; then
		fail "${1##*/} $2 ...: status $rc, not $want"
	else
		pass "${1##*/} $2 ...: status $rc, done without loading PyTorch"
	fi
}
no_torch 0 "$EXPORT" --help
no_torch 0 "$EXEC" --help
no_torch 0 "$MAXB" --help
no_torch 2 "$EXPORT" --model mlp -o -
no_torch 2 "$EXEC" --graph "$TMP/none.xml" --plan "$TMP/none.xml"
no_torch 2 "$EXEC" --plan "$TMP/none.xml" --graph "$TMP/smallcnn.xml"
no_torch 2 "$MAXB" --model mlp --budget 50%

# Ctrl-C while PyTorch loads (a second or two, once the command line and
# the files are checked): status 130 and nothing on stderr (it was a
# traceback from inside torch).  The signal comes from a Python parent
# that does not ignore SIGINT, as a shell's background job would, once
# libtorch is loaded (the import goes on for a second after that).
ctrl_c() {
	"$PY" -c 'import signal, subprocess, sys, time
signal.signal(signal.SIGINT, signal.SIG_DFL)
p = subprocess.Popen([sys.executable] + sys.argv[1:], stdout=subprocess.DEVNULL,
                     stderr=subprocess.PIPE)
for i in range(3000):   # until libtorch is loaded: torch is being imported
    try:
        with open("/proc/%d/maps" % p.pid) as f:
            if "libtorch" in f.read():
                break
    except OSError:
        break
    time.sleep(0.01)
p.send_signal(signal.SIGINT)
err = p.communicate()[1]
sys.exit(0 if p.returncode == 130 and not err else "status %d: %r" % (p.returncode, err[-200:]))' \
	    "$@" 2>"$TMP/err" &&
	    pass "${1##*/}: Ctrl-C while PyTorch loads: status 130, quietly" ||
	    fail "${1##*/}: Ctrl-C while PyTorch loads: $(cat "$TMP/err")"
}
ctrl_c "$EXPORT" --model mlp --size 16 --repeat 1 -o "$TMP/ctrl-c.xml"
ctrl_c "$EXEC" --graph "$TMP/smallcnn.xml" --plan "$TMP/sc-plan.xml"
ctrl_c "$MAXB" --model mlp --size 16 --budget 1M --time-limit 1 --repeat 1 \
    --remat-plan "$RP"

# A PyTorch that is installed but does not load (here a package named torch
# whose import fails as a missing shared library makes it fail): one line
# naming the cause, the status of a missing PyTorch, no traceback.
# broken_torch STATUS TOOL ARGS.
mkdir -p "$TMP/broken/torch"
echo 'raise ImportError("libtorch_cpu.so: cannot open shared object file")' \
    >"$TMP/broken/torch/__init__.py"
broken_torch() {
	want=$1
	shift
	PYTHONPATH="$TMP/broken:$PYTHONPATH" "$PY" "$@" >/dev/null 2>"$TMP/err"
	rc=$?
	[ "$rc" = "$want" ] && [ "$(wc -l <"$TMP/err")" = 1 ] &&
	    grep -q "^${1##*/}: PyTorch is installed for .* but does not load: ImportError: libtorch_cpu.so: cannot open shared object file\$" "$TMP/err" &&
	    pass "${1##*/}: a PyTorch that does not load: status $rc, one line" ||
	    fail "${1##*/} with a PyTorch that does not load: status $rc: $(head -c 300 "$TMP/err")"
}
broken_torch 1 "$EXPORT" --model mlp --size 16 --repeat 1 -o "$TMP/broken.xml"
broken_torch 2 "$EXEC" --graph "$TMP/smallcnn.xml" --plan "$TMP/sc-plan.xml"
broken_torch 2 "$MAXB" --model mlp --size 16 --budget 1M --time-limit 1 \
    --repeat 1 --remat-plan "$RP"
[ ! -e "$TMP/broken.xml" ] ||
    fail "remat-export with a PyTorch that does not load wrote its -o file"

# remat-export: options that do not go together are usage errors (2), and
# the graph is never written over the source of the model class.
"$PY" "$EXPORT" --model smallcnn --input-shape 2,3,16,16 -o "$TMP/x.xml" 2>"$TMP/err"
[ $? = 2 ] && [ "$(cat "$TMP/err")" = "remat-export: --input-shape goes with --module or a torchvision model; smallcnn takes --batch and --size (see --help)" ] &&
    pass "remat-export: --input-shape for a built-in model is a usage error" ||
    fail "remat-export --input-shape with --model: $(tail -1 "$TMP/err")"
mkdir -p "$TMP/own"
printf 'import torch.nn as nn\nclass Net(nn.Sequential):\n    def __init__(self):\n        super().__init__(nn.Flatten(), nn.Linear(48, 10))\n' >"$TMP/own/ownnet.py"
cp "$TMP/own/ownnet.py" "$TMP/own/ownnet.bak"
# ... nor over the file that defines the class where --module names a
# module that imports it from there (reexport: it was written over).
printf 'from ownnet import Net\n' >"$TMP/own/reexport.py"
for m in ownnet reexport; do
	(cd "$TMP/own" && PYTHONPATH=. "$PY" "$EXPORT" --module $m:Net \
	    --input-shape 2,3,4,4 --num-classes 10 -o ownnet.py) 2>"$TMP/err"
	[ $? = 2 ] && cmp -s "$TMP/own/ownnet.py" "$TMP/own/ownnet.bak" &&
	    [ "$(cat "$TMP/err")" = "remat-export: cannot write ownnet.py: it is the source of $m:Net (see --help)" ] &&
	    pass "remat-export --module $m:Net: the graph is never written over the class's source" ||
	    fail "remat-export --module $m:Net -o onto the class's source: $(tail -1 "$TMP/err")"
done
finish

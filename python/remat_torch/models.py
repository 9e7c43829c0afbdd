"""The models a spec names: the built-in small test models, torchvision's
classification, video and segmentation models and a class of the user's
own (--module)."""

import importlib
import math
import os
import sys
from collections.abc import Mapping

import torch
import torch.nn as nn
import torch.nn.functional as F

from .errors import UserError, first_line
from .spec import BUILTIN_MODELS


class MLP(nn.Module):
    """A per-pixel MLP: every pixel's channels go through the same stack of
    linear layers (with dropout, to exercise random operators), then the
    pixels are averaged.  Activations outweigh parameters even at batch 2."""

    def __init__(self, num_classes, width=32, depth=6):
        super().__init__()
        layers = [nn.Linear(3, width), nn.ReLU()]
        for i in range(depth - 1):
            layers += [nn.Linear(width, width), nn.ReLU()]
            if i == depth // 2:
                layers.append(nn.Dropout(0.25))
        self.body = nn.Sequential(*layers)
        self.head = nn.Linear(width, num_classes)

    def forward(self, x):
        pixels = x.flatten(2).transpose(1, 2)           # B x (H*W) x 3
        return self.head(self.body(pixels).mean(dim=1))


class SmallCNN(nn.Module):
    """Conv/BatchNorm stem, residual blocks with in-place skip additions and
    in-place ReLUs, a strided convolution and a linear head."""

    def __init__(self, num_classes, width=16, blocks=3):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1, bias=False),
            nn.BatchNorm2d(width), nn.ReLU(inplace=True))
        self.blocks = nn.ModuleList(ResidualBlock(width) for _ in range(blocks))
        self.down = nn.Conv2d(width, 2 * width, 3, stride=2, padding=1)
        self.head = nn.Linear(2 * width, num_classes)

    def forward(self, x):
        x = self.stem(x)
        for block in self.blocks:
            x = block(x)
        x = F.relu(self.down(x))
        return self.head(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


class ResidualBlock(nn.Module):
    """Two 3x3 convolutions with BatchNorm, an in-place skip addition and
    in-place ReLUs."""

    def __init__(self, width):
        super().__init__()
        self.conv1 = nn.Conv2d(width, width, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, width, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(width)
        self.relu = nn.ReLU(inplace=True)

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out += x
        return self.relu(out)


class SmallUNet(nn.Module):
    """A U-Net with concatenation skips and a per-pixel classification
    head (input sides must be multiples of 2**levels).  The defaults make
    the small test model; width 64 and 4 levels make the U-Net of
    Ronneberger et al. (with padded convolutions)."""

    def __init__(self, num_classes, width=4, levels=3):
        super().__init__()

        def block(cin, cout):
            return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(cout, cout, 3, padding=1), nn.ReLU())
        widths = [width * 2 ** i for i in range(levels + 1)]
        self.down = nn.ModuleList(block(cin, cout) for cin, cout
                                  in zip([3] + widths[:-2], widths[:-1]))
        self.mid = block(widths[-2], widths[-1])
        self.up = nn.ModuleList(nn.ConvTranspose2d(w2, w1, 2, stride=2)
                                for w1, w2 in zip(widths[:-1], widths[1:]))
        self.dec = nn.ModuleList(block(2 * w, w) for w in widths[:-1])
        self.head = nn.Conv2d(width, num_classes, 1)

    def forward(self, x):
        skips = []
        for block in self.down:
            x = block(x)
            skips.append(x)
            x = F.max_pool2d(x, 2)
        x = self.mid(x)
        for up, dec, skip in reversed(list(zip(self.up, self.dec, skips))):
            x = dec(torch.cat([up(x), skip], dim=1))
        return self.head(x)


class GPT(nn.Module):
    """A small GPT-style decoder over token ids (B x T, int64): token and
    position embeddings, pre-LayerNorm blocks of causal self-attention and
    an MLP (with dropout), a final LayerNorm and an output projection tied
    to the token embedding.  Returns B x T x vocab logits."""

    def __init__(self, vocab, seq, width=64, heads=4, layers=2, dropout=0.1):
        super().__init__()
        self.tok = nn.Embedding(vocab, width)
        self.pos = nn.Embedding(seq, width)
        self.blocks = nn.ModuleList(GPTBlock(width, heads, dropout)
                                    for _ in range(layers))
        self.ln = nn.LayerNorm(width)
        for emb in (self.tok, self.pos):    # small, as GPT-2 initializes them
            nn.init.normal_(emb.weight, std=0.02)

    def forward(self, idx):
        t = idx.shape[1]
        x = self.tok(idx) + self.pos(torch.arange(t, device=idx.device))
        for block in self.blocks:
            x = block(x)
        return self.ln(x) @ self.tok.weight.t()


class GPTBlock(nn.Module):
    """x + attention(LayerNorm(x)), then x + MLP(LayerNorm(x))."""

    def __init__(self, width, heads, dropout):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.ln2 = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(),
                                 nn.Linear(4 * width, width), nn.Dropout(dropout))

    def forward(self, x):
        b, t, c = x.shape
        h = self.heads
        q, k, v = self.qkv(self.ln1(x)).split(c, dim=2)
        q, k, v = (z.view(b, t, h, c // h).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(c // h))
        causal = torch.ones(t, t, dtype=torch.bool, device=x.device).tril()
        att = att.masked_fill(~causal, float('-inf')).softmax(dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, c)
        x = x + self.proj(y)
        return x + self.mlp(self.ln2(x))


def _builtin(name, size, num_classes):
    if name == 'gpt':           # size: the sequence length
        return GPT(num_classes, size)
    if name == 'mlp':
        return MLP(num_classes)
    if name == 'smallcnn':
        return SmallCNN(num_classes)
    if name == 'unet':          # the U-Net of Ronneberger et al., padded
        if size % 16:
            raise UserError('unet needs --size to be a multiple of 16')
        return SmallUNet(num_classes, width=64, levels=4)
    if size % 8:
        raise UserError('smallunet needs --size to be a multiple of 8')
    return SmallUNet(num_classes)


def load_object(name, option):
    """What 'pkg.mod:NAME' names (option: the command-line option that gave
    it, for errors), imported from the current directory or sys.path."""
    modname, _, attr = name.partition(':')
    if not modname or not attr:
        raise UserError('%s wants PKG.MOD:NAME, not %r' % (option, name))
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return getattr(importlib.import_module(modname), attr)
    except Exception as e:
        # the user's module runs here: a syntax error (its message names
        # the file and line) or anything its top level raises is theirs
        raise UserError('cannot load %s: %s%s' % (
            name, '' if isinstance(e, (ImportError, AttributeError,
                                       SyntaxError)) else
            type(e).__name__ + ': ', first_line(e)))


def _user_module(spec):
    """An instance of the class spec.module names, constructed with no
    arguments."""
    cls = load_object(spec.module, '--module')
    try:
        return cls()
    except Exception as e:
        raise UserError('%s() failed: %s' % (spec.module, first_line(e)))


def _segmentation(name):
    """Whether name is a torchvision semantic segmentation model (FCN,
    DeepLabV3, LR-ASPP: a class per pixel)."""
    import torchvision
    return name in torchvision.models.list_models(
        module=torchvision.models.segmentation)


def _video(name):
    """Whether name is a torchvision video classification model (input B x
    3 x T x H x W)."""
    import torchvision
    return name in torchvision.models.list_models(
        module=torchvision.models.video)


def unknown_model(name):
    """Why name is no model (None where it is one): neither built in nor a
    torchvision classification, video or segmentation model."""
    import torchvision
    if name in BUILTIN_MODELS or name in torchvision.models.list_models(
            module=torchvision.models) or _segmentation(name) or _video(name):
        return None
    return ('not a torchvision classification, video or segmentation model '
            'nor one of %s' % ', '.join(BUILTIN_MODELS))


def _torchvision(spec):
    """An untrained torchvision classification, video or segmentation
    model."""
    import torchvision
    why = unknown_model(spec.model)
    if why:
        raise UserError('unknown model %r: %s' % (spec.model, why))
    shape, video = spec.shape(), _video(spec.model)
    if len(shape) != (5 if video else 4):
        raise UserError(
            '%s takes a batch of %s: give --input-shape B,3,%s' % (
                spec.model, 'clips' if video else 'images',
                'T,H,W' if video else 'H,W'))
    kwargs = {'weights': None}
    if _segmentation(spec.model):
        # untrained backbone too (its default is ImageNet weights, a
        # download), and no auxiliary head: the step trains 'out' alone
        kwargs['weights_backbone'] = None
        kwargs['aux_loss'] = False
    if spec.num_classes is not None:
        kwargs['num_classes'] = spec.num_classes
    if spec.model.startswith('vit_'):
        if shape[-1] != shape[-2]:
            raise UserError('%s takes square images only, not %dx%d'
                            % (spec.model, shape[-2], shape[-1]))
        kwargs['image_size'] = shape[-1]    # position embeddings depend on it
    if spec.model in ('inception_v3', 'googlenet'):
        kwargs['aux_logits'] = False
        kwargs['init_weights'] = True
    try:
        return torchvision.models.get_model(spec.model, **kwargs)
    except Exception as e:
        # its own checks of the arguments (ViT: a --size that its patch
        # size does not divide), an assertion without a message too
        raise UserError('torchvision cannot build %s%s: %s' % (
            spec.model, ' for images of %dx%d' % shape[-2:]
            if spec.model.startswith('vit_') else '',
            first_line(e) or type(e).__name__))


def construct(spec):
    """The model spec names, with fresh parameters drawn from torch's
    global RNG (seed it first).  A built-in model without num_classes gets
    10, recorded in spec."""
    if spec.module:
        return _user_module(spec)
    if spec.model in BUILTIN_MODELS:
        if spec.num_classes is None:
            spec.num_classes = 64 if spec.model == 'gpt' else 10
        if spec.model == 'gpt' and spec.input_dtype is None:
            spec.input_dtype = 'int64'      # token ids
        return _builtin(spec.model, spec.size, spec.num_classes)
    return _torchvision(spec)


def logits(out):
    """The logits of a model's output: models returning a named tuple
    (InceptionOutputs, ...) give them as .logits, torchvision's
    segmentation models a dict with them as 'out'."""
    if isinstance(out, torch.Tensor):
        return out
    if hasattr(out, 'logits'):
        return out.logits
    if isinstance(out, Mapping):
        for key in ('out', 'logits'):
            if isinstance(out.get(key), torch.Tensor):
                return out[key]
        raise UserError('the model returns a %s without a tensor of logits '
                        "as 'out' or 'logits' (keys: %s)" % (
                            type(out).__name__, ', '.join(map(str, out))))
    raise UserError('the model returns %s, not a tensor of logits' % type(out).__name__)

"""A network file's weights back in torch, to train on from there.

The ONNX export folds each batch norm into the convolution before it (``W x + b``), so a
network file has no batch-norm statistics: :func:`net_from_onnx` puts the folded
convolution back as a convolution and a batch norm that adds ``b`` and nothing else in
eval mode, its statistics those of the convolution's outputs on ``calibration`` planes
(the mean and variance a training batch will see), its scale and shift set so that it
still adds ``b``. The network then answers as the file does (eval mode), and a
training step in train mode normalises by batch statistics close to the stored ones, so
fine-tuning starts from the file's network rather than from a jolt.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from .train import NetError, make_net, torch_module

#: The initializers the export keeps by name (a convolution with a bias, the value's
#: dense layers); every other convolution is a folded one.
NAMED = ("policy.3.weight", "policy.3.bias", "value.4.weight", "value.4.bias",
         "value.6.weight", "value.6.bias")


def _pairs(net: Any) -> list[tuple[Any, Any]]:
    """The (convolution, batch norm) pairs in the order of the forward pass."""
    pairs = [(net.stem[0], net.stem[1])]
    for block in net.tower:
        pairs += [(block.a, block.an), (block.b, block.bn)]
    return pairs + [(net.policy[0], net.policy[1]), (net.value[0], net.value[1])]


def net_from_onnx(path: str | Path, variant: str, calibration: np.ndarray | None = None) -> Any:
    """The torch network of an ONNX file ``tdleaf net export`` wrote for ``variant``
    (eval mode; the file checked as play checks it,
    :func:`search.mcts.network.load_network`), its batch norms calibrated on
    ``calibration`` planes ``(N, 47, 8, 8)`` when given."""
    import onnx
    from onnx import numpy_helper

    from search.mcts.network import load_network
    torch = torch_module()
    load_network(path, variant)          # a corrupt file, another variant: NetworkError
    model = onnx.load(str(path))
    meta = {p.key: p.value for p in model.metadata_props}
    if "channels" not in meta or "blocks" not in meta:
        raise NetError(f"{path}: not a tdleaf network (no architecture in its metadata)")
    net = make_net(int(meta["channels"]), int(meta["blocks"]))
    arrays = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    folded = [n for n in model.graph.node if n.op_type == "Conv" and n.input[1] not in NAMED]
    pairs = _pairs(net)
    if len(folded) != len(pairs) or any(k not in arrays for k in NAMED):
        raise NetError(f"{path}: its layers are not this network's")
    state = net.state_dict()
    for name in NAMED:
        state[name] = torch.from_numpy(arrays[name].copy())
    with torch.no_grad():
        net.load_state_dict(state)
        for (conv, bn), node in zip(pairs, folded):
            w, b = arrays[node.input[1]], arrays[node.input[2]]
            if tuple(conv.weight.shape) != w.shape:
                raise NetError(f"{path}: its layers are not this network's")
            conv.weight.copy_(torch.from_numpy(w.copy()))
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(b.copy()))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
    net.eval()
    if calibration is not None and len(calibration):
        _calibrate(torch, net, calibration)
    return net


def _calibrate(torch: Any, net: Any, planes: np.ndarray) -> None:
    """Each batch norm's statistics from its inputs on ``planes``, its scale and shift
    set so that in eval mode it still adds only its bias."""
    pairs = _pairs(net)
    seen: dict[int, Any] = {}
    hooks = [bn.register_forward_pre_hook(
        lambda module, args, k=k: seen.__setitem__(k, args[0].detach()))
        for k, (_, bn) in enumerate(pairs)]
    try:
        with torch.no_grad():
            net(torch.from_numpy(np.ascontiguousarray(planes, dtype=np.float32)))
    finally:
        for h in hooks:
            h.remove()
    with torch.no_grad():
        for k, (_, bn) in enumerate(pairs):
            y = seen[k]
            mean = y.mean(dim=(0, 2, 3))
            var = y.var(dim=(0, 2, 3), unbiased=False)
            bias = bn.bias.clone()
            bn.running_mean.copy_(mean)
            bn.running_var.copy_(var)
            bn.weight.copy_(torch.sqrt(var + bn.eps))
            bn.bias.copy_(bias + mean)


def write_start(path: str | Path, variant: str, out: Path, calibration: np.ndarray) -> Path:
    """``out``: the ONNX network ``path`` as a weights file (``weights.pt``'s form) that
    a training's ``init`` starts from."""
    torch = torch_module()
    net = net_from_onnx(path, variant, calibration)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp")
    torch.save({"model": net.state_dict()}, tmp)
    tmp.replace(out)
    return out

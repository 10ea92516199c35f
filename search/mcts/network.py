"""A policy-value network for play: an ONNX file run by onnxruntime, checked before use.

A network file is self-describing: ``tdleaf net export`` writes the variant, the
encoding version (:data:`search.mcts.encoding.ENCODING_VERSION`), the architecture and the
teacher into the ONNX model's metadata. :func:`open_network` refuses a file of another
variant or encoding version, one that is not a network, and a shipped one whose bytes
do not match the sha256 of ``search/data/manifest.json``; nothing in an ONNX file runs
code when it is loaded. onnxruntime is the runtime for play because it answers several
times faster than torch at the batches of a search (BENCHMARKS.md, ``tdleaf bench net``).

The shipped networks (``search/data/networks/<variant>.onnx``) are named in the
manifest's ``variants.<variant>.network`` entry::

    {"file": "networks/crazyhouse.onnx", "sha256": "...", "encoding_version": 1,
     "source": "runs/net/crazyhouse", "card": "docs/models.md#crazyhouse"}

Standard library and numpy at import; onnxruntime is imported when a network opens.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from variants.errors import TdleafError

from .. import shipped
from .encoding import ENCODING_VERSION, N_PLANES, POLICY_SIZE

#: What ``shipped`` names as a network spec.
SHIPPED = "shipped"


class NetworkError(TdleafError, ValueError):
    """A network that cannot be used: missing, corrupt, of another variant or encoding
    version, a digest that does not match, or no onnxruntime."""


def sha256_of(path: str | Path) -> str:
    """The hex sha256 of a file's bytes."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def shipped_network(variant: str) -> dict[str, Any] | None:
    """The manifest's network entry of ``variant`` (canonical name), with ``path`` (the
    packaged or user copy) added; None when the variant ships none."""
    entry = shipped.manifest()["variants"].get(variant, {}).get("network")
    if not entry:
        return None
    path = shipped.find(entry["file"])
    return {**entry, "path": path}


@dataclass
class Network:
    """An opened network: ``net(planes)`` answers planes ``(B, 47, 8, 8)`` (float32)
    with policy logits ``(B, 5376)`` and values ``(B,)`` in [-1, 1]."""

    path: Path
    metadata: dict[str, str]
    sha256: str
    origin: str
    session: Any = field(repr=False, default=None)

    def __call__(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits, values = self.session.run(None, {"planes": planes})
        return np.asarray(logits), np.asarray(values).reshape(-1)

    def provenance(self) -> str:
        """One line for people (and the engine's ``info string``): file, origin, digest,
        size and teacher."""
        m = self.metadata
        return (f"{self.origin}: {self.path.name} (sha256 {self.sha256[:12]}; "
                f"{m.get('channels')}x{m.get('blocks')} residual; taught by tdleaf's "
                f"{m.get('teacher')} evaluation at depth {m.get('depth')} on "
                f"{m.get('positions')} positions; encoding {m.get('encoding_version')})")


def onnx_session(path: Path, threads: int) -> Any:
    """An onnxruntime session of the ONNX file ``path`` on the CPU with ``threads`` threads."""
    try:
        import onnxruntime as ort
    except ImportError:
        raise NetworkError("playing a network needs onnxruntime: pip install "
                           "'tdleaf[net]'") from None
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3          # onnxruntime's own warnings are not the user's
    try:
        return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001  # onnxruntime's own types derive from Exception only
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise NetworkError(f"{path}: not an ONNX network ({first[:200]})") from None


def load_network(path: str | Path, variant: str, *, sha256: str | None = None,
                 threads: int = 1, origin: str = "file") -> Network:
    """Open the network file ``path`` for ``variant`` (canonical name): its digest must
    be ``sha256`` when given, its metadata must name the variant and this encoding
    version, and its outputs must have the policy map's size."""
    path = Path(path)
    if not path.is_file():
        raise NetworkError(f"{path}: no such network file")
    digest = sha256_of(path)
    if sha256 is not None and digest != sha256:
        raise NetworkError(f"{path}: its sha256 {digest[:12]}... is not the manifest's "
                           f"{sha256[:12]}...; the file is damaged or was replaced")
    session = onnx_session(path, threads)
    meta = dict(session.get_modelmeta().custom_metadata_map)
    if meta.get("tdleaf_network") != "1":
        raise NetworkError(f"{path}: an ONNX file, but not a tdleaf network "
                           f"(make one with 'tdleaf net export')")
    if meta.get("encoding_version") != str(ENCODING_VERSION):
        raise NetworkError(f"{path} uses encoding version {meta.get('encoding_version')}; "
                           f"this tdleaf reads version {ENCODING_VERSION} only")
    if meta.get("variant") != variant:
        raise NetworkError(f"{path}: a network of {meta.get('variant')}, not of {variant}")
    net = Network(path, meta, digest, origin, session)
    logits, values = net(np.zeros((1, N_PLANES, 8, 8), dtype=np.float32))
    if logits.shape != (1, POLICY_SIZE) or values.shape != (1,):
        raise NetworkError(f"{path}: outputs of shapes {logits.shape} and {values.shape}, "
                           f"not the policy map's (1, {POLICY_SIZE}) and a value")
    return net


def open_network(spec: str, variant: str, *, threads: int = 1) -> Network:
    """The network ``spec`` names for ``variant``: ``shipped`` (the variant's shipped
    network, checked against the manifest's sha256) or an ONNX file."""
    if spec == SHIPPED:
        entry = shipped_network(variant)
        if entry is None:
            raise NetworkError(f"{variant} ships no network (search/data/manifest.json)")
        if entry["path"] is None:
            raise NetworkError(f"{entry['file']}: named in the manifest but not installed")
        origin = shipped.origin(entry["path"])
        return load_network(entry["path"], variant, sha256=entry["sha256"], threads=threads,
                            origin=origin[0] if origin else "file")
    return load_network(spec, variant, threads=threads)


def resolve(spec: str, variant: str, say: Callable[[str], None], *,
            threads: int = 1) -> Network | None:
    """What a front end's ``Net`` option names for ``variant``: None for ``none``; else
    the network, said with its provenance, or None (the heuristic prior then) with the
    reason said, when it cannot be used. ``say`` writes a line for people."""
    if spec == "none":
        return None
    try:
        network = open_network(spec, variant, threads=threads)
    except NetworkError as exc:
        say(f"Net ignored, the MCTS uses the heuristic prior: {exc}")
        return None
    say(f"network for {variant}: {network.provenance()}")
    return network

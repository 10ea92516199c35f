"""``tdleaf net``: a network taught by tdleaf: its training data, its training and its
measurement."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import add_command
from .tools import CliError, add_backend_options, backend_of, exclusive, positive_int

DATA = """\
Write a network's training data: games of the teacher (--teacher: the variant's default
evaluation, a value set such as 'traditional', or a weights file) against itself with the
selective search at --depth, after --random-plies random moves; with probability
--sample a ply plays a move drawn from the prior's policy instead, so that games differ.
Every position the teacher searched is kept with its legal moves (policy indices, see
docs/network.md), the prior's softmax over them (depth 1, the fitted temperature), the
search's best move and score, and the game's result; a position already seen in an
earlier game is left out. Games are written in order into shards of --games-per-shard
games with a manifest (each shard's sha256, the encoding version); every game is
journalled as it ends, so a killed job loses at most the games being played, and the
same command with --resume carries on. A game's positions depend only on the settings
and its index: the data is the same on every backend."""


TRAIN = """\
Train a policy-value network (residual blocks, a convolutional policy head over the
5,376-entry move map, a tanh value head; PyTorch on the CPU) on a 'tdleaf net data'
folder. The loss is the policy's cross-entropy over the legal moves plus --value-weight
times the value's squared error; the policy target is (1 - beta) the search's move plus
beta the prior's softmax, the value target (1 - q) the game's result plus q the search's
score squashed. Every tenth game is held out for validation. After each epoch the folder
gets checkpoint.pt, a line of history.csv (losses, held-out top-1 against the search's
move, value error, positions seen, CPU seconds) and config.json; --resume carries on."""


EVAL = """\
Measure a network on labelled positions no network trains on (default: the variant's
search/data/prior_<variant>.epd, engine games labelled by Fairy-Stockfish): its policy's
top-1 and the mean log-likelihood of the label move, its value's Brier score and sign
accuracy, beside the heuristic prior at depths 0 and 1 (the variant's default
evaluation), the uniform policy and the network's teacher (the search at the depth that
labelled its data; --no-teacher skips it). NET is a training folder, an ONNX file or
'shipped' (the variant's shipped network). With --json, stdout carries one JSON object
whose "net" entry holds "top1", "loglik" and "positions"."""

EXPORT = """\
Write a training folder's network as an ONNX file (default NETDIR/network.onnx): a file
that runs no code when loaded, with the variant, the encoding version, the architecture
and the teacher in its metadata, which 'tdleaf net eval' and the engine check. Prints
the file's sha256."""

COMPARE = """\
The teacher ablation's measurement: networks --a and networks --b (each a group of
training seeds) on the same labelled positions (as 'tdleaf net eval'): each network's
top-1 and log-likelihood, each group's mean, and b - a with a 95% interval from a paired
bootstrap over positions and seeds."""


ITERATE = """\
Expert iteration: the MCTS plays itself and learns from its own search, generation by
generation, in one resumable folder (--out). A generation: --games self-play games of the
best player so far (generation 0: --start, tdleaf's heuristic prior 'prior:default', the
traditional values' 'prior:traditional', or 'none': a uniform policy and value 0), each
move searched with playout cap randomisation (a share --full-share of moves searched with
--playouts and Dirichlet noise and recorded, the rest with --fast-playouts and only
played); then a network trained for --epochs on the last --window generations' positions,
from the previous generation's weights, toward the search's improved policy (--target:
visit shares or Gumbel AlphaZero's completed-Q policy) and the result mixed with the
root's value (--q); then measured: its top-1 and log-likelihood on labelled positions
(--positions), a gate match of its MCTS against the best player's at --eval-playouts (a
generation that scores under 50% is not shipped), and a match against the fixed anchor,
tdleaf's alpha-beta at --anchor-nodes nodes a move. loop.json keeps every generation's
record and CPU seconds; the same command with --resume carries on after a kill, losing at
most the games being played. docs/network.md#expert-iteration explains the folder."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``net`` command group."""
    p = add_command(subparsers, "net",
                    description="A network taught by tdleaf. Run 'tdleaf net COMMAND --help' "
                                "for the options of one.")
    sub = p.add_subparsers(title="commands", metavar="COMMAND")
    p.set_defaults(run=None, parser=p)

    from tdleaf.net.data import DataConfig
    d = DataConfig("chess")
    b = sub.add_parser("data", help="write training data: self-play labelled by the search",
                       description=DATA)
    b.add_argument("--variant", required=True, help="the variant")
    b.add_argument("--games", type=positive_int, required=True, metavar="N",
                   help="games in all (with --resume: the total to reach)")
    b.add_argument("--out", required=True, metavar="DIR", help="the data folder")
    b.add_argument("--depth", type=positive_int, default=d.depth, metavar="D",
                   help=f"the teacher's search depth (default {d.depth})")
    b.add_argument("--teacher", default=d.teacher, metavar="EVAL",
                   help="the evaluation that plays and labels (default: the variant's)")
    b.add_argument("--random-plies", type=int, default=d.random_plies, metavar="K",
                   help=f"random opening moves, not kept (default {d.random_plies})")
    b.add_argument("--sample", type=float, default=d.sample, metavar="P",
                   help=f"a ply's chance of a move drawn from the prior (default {d.sample})")
    b.add_argument("--max-plies", type=positive_int, default=d.max_plies, metavar="N",
                   help=f"a game ends drawn at N plies (default {d.max_plies})")
    b.add_argument("--seed", type=int, default=d.seed, help=f"(default {d.seed})")
    b.add_argument("--games-per-shard", type=positive_int, default=d.games_per_shard,
                   metavar="N", help=f"(default {d.games_per_shard})")
    b.add_argument("--resume", action="store_true", help="carry on the data set in --out")
    add_backend_options(b, "games", "1: in this process")
    b.add_argument("--no-progress", action="store_true", help="no progress bar")
    b.set_defaults(run=run_data)

    from tdleaf.net.train import TrainConfig
    t = TrainConfig()
    b = sub.add_parser("train", help="train a policy-value network on a data folder",
                       description=TRAIN)
    b.add_argument("data", metavar="DATA", help="a 'tdleaf net data' folder")
    b.add_argument("--out", required=True, metavar="NETDIR", help="the training folder")
    b.add_argument("--epochs", type=positive_int, default=t.epochs, metavar="E",
                   help=f"epochs in all (with --resume: the total; default {t.epochs})")
    b.add_argument("--channels", type=positive_int, default=t.channels, metavar="C",
                   help=f"(default {t.channels})")
    b.add_argument("--blocks", type=positive_int, default=t.blocks, metavar="B",
                   help=f"residual blocks (default {t.blocks})")
    b.add_argument("--batch", type=positive_int, default=t.batch, metavar="N",
                   help=f"(default {t.batch})")
    b.add_argument("--lr", type=float, default=t.lr, help=f"peak learning rate (default {t.lr})")
    b.add_argument("--beta", type=float, default=t.beta,
                   help=f"the prior's share of the policy target (default {t.beta})")
    b.add_argument("--q", type=float, default=t.q,
                   help=f"the search score's share of the value target (default {t.q})")
    b.add_argument("--value-weight", type=float, default=t.value_weight, metavar="W",
                   help=f"(default {t.value_weight})")
    b.add_argument("--seed", type=int, default=t.seed, help=f"(default {t.seed})")
    b.add_argument("--threads", type=positive_int, default=t.threads, metavar="N",
                   help=f"torch threads; 1 makes a seeded run reproducible (default {t.threads})")
    b.add_argument("--positions", type=positive_int, default=None, metavar="N",
                   help="train on the data's first N positions, in game order (default: all)")
    b.add_argument("--mirror", action="store_true",
                   help="mirror each position without castling rights left to right with "
                        "probability 1/2 (a symmetry of the rules: twice the data)")
    _device_option(b)
    b.add_argument("--resume", action="store_true", help="carry on the run in --out")
    b.add_argument("--no-progress", action="store_true", help="no progress bar")
    b.add_argument("--no-plot", action="store_true",
                   help="do not draw the learning curves (NETDIR/figures/net-curves.png; "
                        "later: 'tdleaf plot NETDIR')")
    b.set_defaults(run=run_train)

    b = sub.add_parser("eval", help="a network's top-1 and log-likelihood on labelled "
                                    "positions, beside the prior's and the uniform policy's",
                       description=EVAL)
    b.add_argument("net", metavar="NET",
                   help="a 'tdleaf net train' folder, an ONNX file or 'shipped'")
    _eval_options(b)
    b.add_argument("--no-teacher", action="store_true",
                   help="do not measure the network's teacher (a search a position)")
    b.set_defaults(run=run_eval)

    _register_iterate(sub)

    b = sub.add_parser("export", help="write a training folder's network as an ONNX file",
                       description=EXPORT)
    b.add_argument("netdir", metavar="NETDIR", help="a 'tdleaf net train' folder")
    b.add_argument("--out", metavar="FILE", help="the ONNX file (default NETDIR/network.onnx)")
    b.set_defaults(run=run_export)

    b = sub.add_parser("compare", help="two groups of networks on the same positions, "
                                       "with a paired bootstrap interval", description=COMPARE)
    b.add_argument("--a", nargs="+", required=True, metavar="NET", help="the first group")
    b.add_argument("--b", nargs="+", required=True, metavar="NET", help="the second group")
    _eval_options(b)
    b.set_defaults(run=run_compare)


#: ``tdleaf net iterate``'s loop settings: option, type, metavar and help (the default
#: is :class:`tdleaf.net.iterate.LoopConfig`'s).
_LOOP_OPTIONS: tuple[tuple[str, type, str, str], ...] = (
    ("start", str, "GUIDE", ("generation 0's guide: prior:default, prior:traditional (any "
                             "value set or weights file after 'prior:'), none, net:FILE.onnx or net:shipped")),
    ("games", int, "N", "self-play games a generation"),
    ("playouts", int, "P", "playouts of a full (recorded) search"),
    ("fast_playouts", int, "P", "playouts of a fast (played, not recorded) search"),
    ("full_share", float, "S", "the share of moves searched fully"),
    ("target", str, "KIND", "the policy target: visits or completed-q"),
    ("random_plies", int, "K", "random opening plies of a self-play game"),
    ("temperature_plies", int, "K", "plies whose move is drawn from the visits"),
    ("window", int, "K", "generations of data a network learns from"),
    ("epochs", int, "E", "epochs a generation"),
    ("channels", int, "C", "the network's channels"),
    ("blocks", int, "B", "the network's residual blocks"),
    ("batch", int, "N", "training batch"),
    ("lr", float, "LR", "peak learning rate"),
    ("q", float, "Q", "the root value's share of the value target"),
    ("value_weight", float, "W", "the value loss's weight"),
    ("eval_playouts", int, "P", "the MCTS's playouts in the gate and anchor matches"),
    ("match_plies", int, "K", "random opening plies of the matches' game pairs"),
    ("gate_games", int, "N", "games of the gate match (0: every generation is shipped)"),
    ("anchor_games", int, "N", "games against the anchor (0: none)"),
    ("anchor_nodes", int, "N", ("the anchor's nodes a move (tdleaf's alpha-beta, default "
                                "evaluation)")),
    ("seed", int, "S", "seeds the games and the training"),
)


def _register_iterate(sub: argparse._SubParsersAction) -> None:
    from tdleaf.net.iterate import LoopConfig
    d = LoopConfig("chess")
    b = sub.add_parser("iterate", help="expert iteration: MCTS self-play and training, "
                                       "generation by generation", description=ITERATE)
    b.add_argument("--variant", required=True, help="the variant")
    b.add_argument("--out", required=True, metavar="DIR", help="the loop's folder")
    b.add_argument("--generations", type=positive_int, required=True, metavar="G",
                   help="generations in all (with --resume: the total to reach)")
    for name, kind, metavar, text in _LOOP_OPTIONS:
        b.add_argument(f"--{name.replace('_', '-')}", dest=name, type=kind,
                       default=getattr(d, name), metavar=metavar,
                       help=f"{text} (default {getattr(d, name)})")
    b.add_argument("--positions", metavar="EPD",
                   help="held-out labelled positions the networks are measured on (default "
                        "search/data/prior_<variant>.epd)")
    _device_option(b)
    b.add_argument("--resume", action="store_true", help="carry on the loop in --out")
    add_backend_options(b, "games", "1: in this process")
    b.add_argument("--no-progress", action="store_true", help="no progress bar")
    b.set_defaults(run=run_iterate)


def _device_option(b: argparse.ArgumentParser) -> None:
    b.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto",
                   help="where torch trains: auto (a GPU when torch sees one, default), cpu "
                        "or cuda; the files are the same, and a run may resume on the other")


def _eval_options(b: argparse.ArgumentParser) -> None:
    b.add_argument("--variant", required=True, help="the variant")
    b.add_argument("--positions", metavar="EPD",
                   help="labelled positions, 'FEN;bm UCI;result R;' (R for the side to move: "
                        "1, 0.5, 0); default search/data/prior_<variant>.epd")
    b.add_argument("--json", action="store_true", help="print one JSON object")


def run_data(args: argparse.Namespace) -> int:
    """Execute ``tdleaf net data``."""
    from tqdm import tqdm

    from tdleaf.net.data import DataConfig, write_data

    from .tools import say_if_compiling

    cfg = DataConfig(args.variant, games=args.games, depth=args.depth, teacher=args.teacher,
                     random_plies=args.random_plies, sample=args.sample,
                     max_plies=args.max_plies, seed=args.seed,
                     games_per_shard=args.games_per_shard)
    cfg.validate()
    backend = backend_of(args)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print(f"tdleaf net data: {cfg.variant}, {cfg.games} games, teacher {cfg.teacher} at depth "
          f"{cfg.depth}; {backend.describe()}; data in {out}", file=sys.stderr, flush=True)
    say_if_compiling()
    bar = tqdm(total=cfg.games, unit="game", disable=args.no_progress, dynamic_ncols=True)

    def progress(games: int, positions: int) -> None:
        bar.update(games - bar.n)
        bar.set_postfix_str(f"{positions} positions in shards", refresh=False)

    try:
        with exclusive(out, "net data"):
            manifest = write_data(out, cfg, backend, resume=args.resume, progress=progress)
    finally:
        bar.close()
    print(f"{manifest['games']} games, {manifest['positions']} positions "
          f"({manifest['duplicates']} repeated ones left out) in "
          f"{len(manifest['shards'])} shard(s): {out / 'manifest.json'}")
    return 0


def run_train(args: argparse.Namespace) -> int:
    """Execute ``tdleaf net train``."""
    from tqdm import tqdm

    from tdleaf.net.train import TrainConfig, train

    cfg = TrainConfig(channels=args.channels, blocks=args.blocks, epochs=args.epochs,
                      batch=args.batch, lr=args.lr, beta=args.beta, q=args.q,
                      value_weight=args.value_weight, seed=args.seed, threads=args.threads,
                      positions=args.positions or 0, mirror=args.mirror)
    bar = tqdm(total=cfg.epochs, unit="epoch", disable=args.no_progress, dynamic_ncols=True)

    def progress(epoch: int, done: int, total: int) -> None:
        bar.n = epoch + min(done, total) / total
        bar.refresh()

    try:
        history = train(Path(args.data), Path(args.out), cfg, resume=args.resume,
                        progress=progress, exclude=_measured_keys(Path(args.data)),
                        device=args.device)
    finally:
        bar.close()
    if history:
        last = history[-1]
        print(f"epoch {int(last['epoch'])}: train loss {last['train_loss']:.3f}, held-out "
              f"top-1 {100 * last['val_top1']:.1f}%, value MSE {last['val_value_mse']:.3f} "
              f"({int(last['val_positions'])} positions); {Path(args.out) / 'checkpoint.pt'}")
    if not args.no_plot:
        from plots.net import plot_net
        (figure,) = plot_net(args.out)
        print(f"learning curves in {figure}")
    return 0


def _measured_keys(data: Path) -> set[int]:
    """The keys of the labelled positions networks of the data's variant are measured on
    (:func:`tdleaf.net.measure.measured_keys`): training leaves them out."""
    import json

    from tdleaf.net.measure import measured_keys
    try:
        variant = json.loads((data / "manifest.json").read_text())["config"]["variant"]
    except (OSError, ValueError, KeyError, TypeError):
        return set()                    # the training reports the unreadable data itself
    return measured_keys(variant)


def run_iterate(args: argparse.Namespace) -> int:
    """Execute ``tdleaf net iterate``."""
    from tqdm import tqdm

    from tdleaf.net.iterate import LoopConfig, cpu_hours, run_loop

    from .tools import say_if_compiling

    cfg = LoopConfig(args.variant, positions=args.positions,
                     **{name: getattr(args, name) for name, *_ in _LOOP_OPTIONS}).validate()
    backend = backend_of(args)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print(f"tdleaf net iterate: {cfg.variant} from {cfg.start}, {args.generations} "
          f"generations of {cfg.games} games; {backend.describe()}; loop in {out}",
          file=sys.stderr, flush=True)
    say_if_compiling()
    bar = tqdm(total=1, disable=args.no_progress, dynamic_ncols=True, leave=False)
    shown = [""]                      # the step the bar counts

    def progress(step: str, done: int, total: int) -> None:
        if shown[0] != step:
            shown[0] = step
            bar.reset(total=total)
            bar.set_description_str(step, refresh=False)
        bar.update(done - bar.n)

    def say(line: str) -> None:
        bar.write(line, file=sys.stderr)

    try:
        with exclusive(out, "net iterate"):
            state = run_loop(out, cfg, backend, args.generations, resume=args.resume,
                             say=say, progress=progress, device=args.device)
    finally:
        bar.close()
    print(f"{len(state['generations'])} generations, best {state['best']}, "
          f"{cpu_hours(state):.2f} CPU-hours: {out / 'loop.json'}")
    return 0


def run_eval(args: argparse.Namespace) -> int:
    """Execute ``tdleaf net eval``."""
    from tdleaf.bench.common import print_report
    from tdleaf.net.measure import evaluate_net, format_report
    from variants import canonical_variant

    try:
        report = evaluate_net(args.net, canonical_variant(args.variant), args.positions,
                              teacher=not args.no_teacher)
    except (ValueError, OSError) as exc:    # builtin errors too: unreadable files, data
        raise CliError(str(exc)) from None
    print_report(report, args.json, format_report)
    return 0


def run_export(args: argparse.Namespace) -> int:
    """Execute ``tdleaf net export``."""
    from tdleaf.net.train import export_network

    try:
        path, digest = export_network(Path(args.netdir), Path(args.out) if args.out else None)
    except (ValueError, OSError) as exc:    # builtin errors too: unreadable files, data
        raise CliError(str(exc)) from None
    print(f"{path}: sha256 {digest}")
    return 0


def run_compare(args: argparse.Namespace) -> int:
    """Execute ``tdleaf net compare``."""
    from tdleaf.bench.common import print_report
    from tdleaf.net.measure import compare_nets, format_comparison
    from variants import canonical_variant

    try:
        report = compare_nets(args.a, args.b, canonical_variant(args.variant), args.positions)
    except (ValueError, OSError) as exc:    # builtin errors too: unreadable files, data
        raise CliError(str(exc)) from None
    print_report(report, args.json, format_comparison)
    return 0

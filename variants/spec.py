"""The variants this package plays, each described once, as plain data: no numba, no
NumPy, no python-chess, so that front ends, plots and help texts can name variants
without loading the rules (the fast UCI handshake imports this module).

Code outside :mod:`variants` decides by a variant's flags (:attr:`Variant.pockets`,
:attr:`Variant.must_capture`, ...), never by its name nor by its rules code: the
compiled search reads the flags as per-code arrays (:mod:`variants.rules`), and asks
:mod:`variants.outcome` where a flag is not enough (the score of a finished game, a
draw by rule). ``tests/test_spec.py`` and ``tests/test_layout.py`` check it.

>>> from variants.spec import VARIANTS, canonical_variant, get
>>> VARIANTS
('chess', 'crazyhouse', 'suicide', 'giveaway', 'antichess', 'atomic', 'kingofthehill', '3check', 'racingkings', 'horde')
>>> canonical_variant("zh")
'crazyhouse'
>>> get("anti").xboard, get("anti").losing
('giveaway', True)
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import UnknownVariantError

#: Values of :attr:`Variant.mirror`.
MIRRORS = ("rank", "file", "colour")
#: Names of :attr:`Variant.selective_off` (the search maps them to its technique bits).
TECHNIQUES = ("null-move", "lmr", "check-ext", "futility", "reverse-futility", "razor",
              "qsee", "suicide-qbound", "see-order", "aspiration", "only-move", "forced-ext",
              "forcing-order", "keep-offers")


@dataclass(frozen=True)
class Variant:
    """One variant: its names, its rules as flags, and the package's settings for it."""

    #: Canonical name.
    name: str
    #: The numba rules code (:mod:`variants.board`); variants with the same rules share it.
    code: int
    #: python-chess board class, as ``module.Class``.
    board_class: str
    #: python-chess's ``uci_variant``: what UCI_Variant sends.
    uci_variant: str
    #: The XBoard name (python-chess's ``xboard_variant``).
    xboard: str
    #: lichess's key, or None where lichess does not play it.
    lichess: str | None
    #: Other accepted names (lower case).
    aliases: tuple[str, ...]
    #: Pieces in hand (crazyhouse).
    pockets: bool
    #: The side that loses everything wins: material is worth less than nothing and the
    #: king has a learnt value.
    losing: bool
    #: Kings are ordinary pieces (captured, promoted to).
    king_capture: bool
    #: Captures explode (atomic).
    explosions: bool
    #: Captures are compulsory (the losing family): no stand-pat while one is on the
    #: board, no null move (zugzwang is the rule), no check.
    must_capture: bool
    #: How a game is won, descriptive tags.
    win_conditions: tuple[str, ...]
    #: How piece-square tables mirror between the colours (one of :data:`MIRRORS`).
    mirror: str
    #: The piece and value that normalise learnt values (the report's rule).
    normalise: tuple[str, float]
    #: Black's, where the sides differ (else None: as :attr:`normalise`).
    normalise_black: tuple[str, float] | None = None
    #: Reference engines as match player specs (``uci:fairy-stockfish``, ...), in the
    #: order the ladder measures them.
    engines: tuple[str, ...] = ()
    #: Selective-search techniques (of :data:`TECHNIQUES`) measured not to help here.
    selective_off: tuple[str, ...] = ()
    #: Techniques outside the default selective set (``only-move``, ``forced-ext``,
    #: ``forcing-order``, ``keep-offers``: for compulsory captures) that the variant's
    #: selective search adds, where measured to help.
    selective_on: tuple[str, ...] = ()
    #: The variant whose strength ladder serves this one when it has none of its own.
    ladder_fallback: str | None = None
    #: Half-width of the first aspiration window at the root, pawns.
    aspiration: float = 0.5
    #: Futility and razoring margins of the selective search, pawns per ply of depth
    #: (drops and explosions swing material further in one move; 0 where captures are
    #: compulsory and the search does not prune). The four lichess variants added last
    #: take chess's, not yet measured. These three are for the variant's shipped tables,
    #: which the techniques were measured with; other weights may carry their own refit
    #: (``meta.search_margins``: ``search.alphabeta.engine.search_margins``, ``tdleaf bench margins``).
    futility_margin: float = 1.0
    razor_margin: float = 3.0
    #: The leaf feature block (``search.layout.BLOCKS``) of its own way to win, which its
    #: ``psq`` feature set holds and learns (None: the variant has none).
    goal_block: str | None = None
    #: The share of a timed move's budget that a proof-number search (:mod:`search.solve.pns`)
    #: spends at the root before alpha-beta: the engine plays a proved win and leaves
    #: out the moves proved to lose (0: off). Fixed-depth and node-limited searches never
    #: run it, so learning and the pinned searches are unchanged. Off everywhere: a
    #: quarter in suicide was no better at 0.1 s a move (RESULTS.md, issue 64).
    proof_share: float = 0.0
    #: The share of a timed move's budget kept, after the alpha-beta search, for the proof
    #: check of the move it chose: a proof-number search of the position after it, for
    #: the opponent; a move proved to lose is left out and the others searched again (0:
    #: off). Like ``proof_share``, never run by fixed-depth or node-limited searches.
    #: 0.3 where captures are compulsory: in suicide it held 9 more of the 45 defence
    #: positions at 1 s a move and lost none; at 0.1 s a move it scored -13 [-37, +11] Elo
    #: (RESULTS.md, issue 64).
    proof_check: float = 0.0
    #: The most pieces of the endgame tables :mod:`search.solve.endgame` builds for its rules
    #: by retrograde analysis (0: none).
    endgame_pieces: int = 0
    #: The engine consults the opening book its proof search built
    #: (:mod:`search.solve.book`, ``search/data/book/<name>.json``) on a timed move: it plays
    #: a proved win and never a move the book proves to lose.
    book: bool = False
    #: Its name in a sentence or a heading ("King of the hill"); None: the name, capitalised.
    display: str | None = None
    #: Pieces its games never have (racing kings: pawns): their weights keep their
    #: starting values, so learnt values are not reported for them.
    absent: str = ""
    #: The halfmove clock counts: the 50- and 75-move rules apply, and a capture or a
    #: pawn move bounds how far back a repetition is looked for (python-chess: not in
    #: crazyhouse, where dropped pieces make every move reversible).
    halfmove_rule: bool = True
    #: The selective search may extend checks here (where they are off as measured,
    #: :attr:`selective_off` says so); elsewhere checks are too many (drops, the third
    #: check) or not checks at all (the losing family).
    check_extensions: bool = False

    @property
    def ends_on_board(self) -> bool:
        """Whether a game can end by a rule of its own on the board (an explosion, the
        hill, the third check, a bare side...), not only by mate or stalemate."""
        return any(w not in ("checkmate", "stalemate") for w in self.win_conditions)

    @property
    def title(self) -> str:
        """The name for people: ``"Three-check"`` for ``3check``."""
        return self.display or self.name.capitalize()

    @property
    def names(self) -> tuple[str, ...]:
        """Every name accepted for it: canonical first, then the aliases."""
        return (self.name, *self.aliases)

    def same_rules(self, other: Variant) -> bool:
        """True when both play by the same rules (giveaway and antichess): a position
        or weights file of one is good for the other."""
        return self.code == other.code

    def normalisation(self, black: bool = False) -> tuple[str, float]:
        """``(piece, value)`` that normalises learnt values (of black's pieces with
        ``black``, where the sides differ)."""
        return (self.normalise_black or self.normalise) if black else self.normalise


# Measured settings, with the reasons (BENCHMARKS.md, "Selective search"): atomic:
# reverse futility and SEE ordering cost Elo (SPRT H0); futility, razoring, check
# extensions and SEE pruning in quiescence were undecided at 600 games, and the set
# without all six passed a non-regression SPRT against the full set. Crazyhouse: SEE
# ordering, undecided after 2,000 games. Chess: late-move reductions cost Elo and
# futility does not help (H0). Suicide and giveaway keep all that applies.
_ALL = (
    Variant("chess", 0, "chess.Board", "chess", "normal", "standard", ("standard",),
            pockets=False, losing=False, king_capture=False, explosions=False,
            must_capture=False, win_conditions=("checkmate",), mirror="rank",
            normalise=("B", 3.0), engines=("uci:fairy-stockfish",),
            selective_off=("lmr", "futility"), aspiration=0.3, check_extensions=True),
    Variant("crazyhouse", 1, "chess.variant.CrazyhouseBoard", "crazyhouse", "crazyhouse",
            "crazyhouse", ("zh", "house"),
            pockets=True, losing=False, king_capture=False, explosions=False,
            must_capture=False, win_conditions=("checkmate",), mirror="rank",
            normalise=("B", 3.0), engines=("uci:fairy-stockfish", "xboard:sjeng"),
            selective_off=("see-order",), aspiration=0.6, futility_margin=2.0,
            razor_margin=4.0, halfmove_rule=False),
    Variant("suicide", 2, "chess.variant.SuicideBoard", "suicide", "suicide", None, (),
            pockets=False, losing=True, king_capture=True, explosions=False, must_capture=True,
            win_conditions=("lose-all", "stalemate-fewer-pieces"), mirror="rank",
            normalise=("R", -5.0), engines=("xboard:sjeng",), ladder_fallback="giveaway",
            futility_margin=0.0, razor_margin=0.0, endgame_pieces=3, proof_check=0.3,
            selective_on=("only-move", "forced-ext"), book=True),
    Variant("giveaway", 3, "chess.variant.GiveawayBoard", "giveaway", "giveaway", None, (),
            pockets=False, losing=True, king_capture=True, explosions=False, must_capture=True,
            win_conditions=("lose-all", "stalemate-wins"), mirror="rank",
            normalise=("R", -5.0), engines=("uci:fairy-stockfish",), futility_margin=0.0,
            razor_margin=0.0, endgame_pieces=3, proof_check=0.3),
    Variant("antichess", 3, "chess.variant.AntichessBoard", "antichess", "giveaway",
            "antichess", ("anti",),
            pockets=False, losing=True, king_capture=True, explosions=False, must_capture=True,
            win_conditions=("lose-all", "stalemate-wins"), mirror="rank",
            normalise=("R", -5.0), engines=("uci:fairy-stockfish",), ladder_fallback="giveaway",
            futility_margin=0.0, razor_margin=0.0, endgame_pieces=3, proof_check=0.3,
            selective_on=("only-move", "forced-ext"), book=True),
    Variant("atomic", 4, "chess.variant.AtomicBoard", "atomic", "atomic", "atomic", (),
            pockets=False, losing=False, king_capture=False, explosions=True,
            must_capture=False, win_conditions=("checkmate", "king-explodes"), mirror="rank",
            normalise=("N", 2.5), engines=("uci:fairy-stockfish-wasm",),
            selective_off=("futility", "reverse-futility", "razor", "check-ext", "qsee",
                           "see-order"), futility_margin=1.5, razor_margin=3.5,
            check_extensions=True),
    Variant("kingofthehill", 5, "chess.variant.KingOfTheHillBoard", "kingofthehill",
            "kingofthehill", "kingOfTheHill", ("king of the hill", "koth"),
            pockets=False, losing=False, king_capture=False, explosions=False,
            must_capture=False, win_conditions=("checkmate", "king-on-hill"), mirror="rank",
            normalise=("B", 3.0), engines=("uci:fairy-stockfish",), goal_block="hill",
            display="King of the hill"),
    Variant("3check", 6, "chess.variant.ThreeCheckBoard", "3check", "3check", "threeCheck",
            ("three-check", "three check", "threecheck", "three check chess", "3-check",
             "3 check"),
            pockets=False, losing=False, king_capture=False, explosions=False,
            must_capture=False, win_conditions=("checkmate", "third-check"), mirror="rank",
            normalise=("B", 3.0), engines=("uci:fairy-stockfish",), goal_block="checks",
            display="Three-check"),
    # The start is mirrored left-right between the colours (white's pieces on the
    # right half of ranks 1-2, black's on the left half).
    Variant("racingkings", 7, "chess.variant.RacingKingsBoard", "racingkings", "racingkings",
            "racingKings", ("racing kings", "racing", "race"),
            pockets=False, losing=False, king_capture=False, explosions=False,
            must_capture=False, win_conditions=("king-on-8th-rank",), mirror="file",
            normalise=("B", 3.0), engines=("uci:fairy-stockfish",), goal_block="race",
            display="Racing kings", absent="P"),
    # White's horde is pawns: a white bishop exists only after a promotion, so its
    # learnt value is too rarely trained to scale by; white is scaled by its pawn.
    Variant("horde", 8, "chess.variant.HordeBoard", "horde", "horde", "horde",
            ("horde chess",),
            pockets=False, losing=False, king_capture=False, explosions=False,
            must_capture=False, win_conditions=("checkmate", "capture-all"), mirror="colour",
            normalise=("P", 1.0), normalise_black=("B", 3.0),
            engines=("uci:fairy-stockfish",)),
)


#: Every variant by canonical name, in :data:`VARIANTS` order.
SPECS: dict[str, Variant] = {v.name: v for v in _ALL}
#: The variants this package plays, by canonical name.
VARIANTS: tuple[str, ...] = tuple(SPECS)
#: Other names accepted for them -> canonical name.
ALIASES: dict[str, str] = {a: v.name for v in _ALL for a in v.aliases}
#: One variant per set of rules (the first of each code): what benchmarks and data
#: measured once per rule set cover (antichess is giveaway's rules).
RULE_FAMILIES: tuple[str, ...] = tuple(v.name for i, v in enumerate(_ALL)
                                       if all(u.code != v.code for u in _ALL[:i]))
#: The fields that are the rules (what a table of outcomes depends on); the others tune
#: the search and the tools, and may change without a table being built again.
RULE_FIELDS = ("name", "code", "board_class", "pockets", "losing", "king_capture",
               "explosions", "must_capture", "win_conditions", "halfmove_rule")


def get(name: str | Variant) -> Variant:
    """The variant of a name or alias (case-insensitive); raises UnknownVariantError."""
    if isinstance(name, Variant):
        return name
    key = str(name).strip().lower()
    found = SPECS.get(ALIASES.get(key, key))
    if found is None:
        raise UnknownVariantError(
            f"unknown variant {name!r}; expected one of: {', '.join(VARIANTS)}")
    return found


def rules_text() -> str:
    """Every variant's rule fields (:data:`RULE_FIELDS`), as text to digest."""
    return "\n".join(repr(tuple(getattr(v, f) for f in RULE_FIELDS)) for v in _ALL)


def canonical_variant(name: str) -> str:
    """Canonical name of a variant, accepting common aliases; raises UnknownVariantError."""
    return get(name).name


def same_rules(a: str, b: str) -> bool:
    """True when variants ``a`` and ``b`` play by the same rules (giveaway and
    antichess; a variant and its aliases); False when either name is unknown."""
    try:
        return get(a).code == get(b).code
    except UnknownVariantError:
        return False


def by_code(code: int) -> Variant:
    """The first variant (in :data:`VARIANTS` order) of a numba rules code: giveaway for
    the rules giveaway and antichess share."""
    for v in _ALL:
        if v.code == int(code):
            return v
    raise UnknownVariantError(f"unknown variant code {code!r}")


def by_uci(name: str) -> Variant:
    """The variant of a UCI_Variant value (aliases accepted too)."""
    key = str(name).strip().lower()
    for v in _ALL:
        if v.uci_variant == key:
            return v
    return get(name)


def by_xboard(name: str) -> Variant:
    """The variant of an XBoard name (``normal``, ...; the first of those sharing one:
    giveaway); a canonical name is accepted too, so that antichess can be asked for."""
    key = str(name).strip().lower()
    for v in _ALL:
        if v.xboard == key:
            return v
    if key in SPECS:
        return SPECS[key]
    raise UnknownVariantError(f"unsupported XBoard variant {name!r}; expected one of: "
                              f"{', '.join(xboard_names())}")


def xboard_names() -> tuple[str, ...]:
    """The XBoard names this package plays, each once, in :data:`VARIANTS` order."""
    return tuple(dict.fromkeys(v.xboard for v in _ALL))


def with_flag(flag: str) -> tuple[str, ...]:
    """Canonical names of the variants whose boolean ``flag`` (``losing``, ...) is set."""
    return tuple(v.name for v in _ALL if getattr(v, flag))


def rules_family(name: str) -> str:
    """The canonical name that stands for a variant's rules (giveaway for antichess):
    the key of data measured once per rule set."""
    return by_code(get(name).code).name


def variant_list(names: tuple[str, ...] = VARIANTS) -> str:
    """``"chess, crazyhouse, ... or horde"``: the variants for a help text."""
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)


def normalisation_text() -> str:
    """How learnt values are normalised, per variant, for help texts: ``the bishop = 3
    (chess, crazyhouse, ...), ...``, grouped by rule."""
    groups: dict[str, list[str]] = {}
    for v in _ALL:
        rule = _rule_text(v.normalise)
        if v.normalise_black:
            rule = (f"White's {_rule_text(v.normalise, '')}, "
                    f"Black's {_rule_text(v.normalise_black, '')}")
        groups.setdefault(rule, []).append(v.name)
    return "; ".join(f"{rule} ({', '.join(names)})" for rule, names in groups.items())


_PIECE_NAMES = {"P": "pawn", "N": "knight", "B": "bishop", "R": "rook", "Q": "queen",
                "K": "king"}


def _rule_text(rule: tuple[str, float], article: str = "the ") -> str:
    return f"{article}{_PIECE_NAMES[rule[0]]} = {rule[1]:g}"

"""Match statistics as engine testers compute them (cutechess-cli, fishtest).

Scores are from the first player's point of view: a win 1, a draw 1/2, a loss 0. Elo is
logistic: a score ``s`` is worth ``-400 log10(1/s - 1)``.

* Trinomial: game by game (wins, losses, draws).
* Pentanomial: game pairs, the same opening with colours reversed; a pair scores 0, 1/2,
  1, 3/2 or 2 points, counted in ``[LL, LD, DD or WL, WD, WW]``. Pairs are more honest
  than games when openings are unbalanced (fishtest).
* LOS: the likelihood of superiority, from wins and losses.
* The sign test of the report (Droste & Fürnkranz 2008): wins against losses, draws left
  out, two-sided binomial test.
* GSPRT: the generalised sequential probability ratio test of fishtest: the
  log-likelihood ratio of the observed outcome frequencies under the maximum-likelihood
  distributions whose expected scores are those of elo0 and elo1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

# scipy is imported where it is used: importing scipy.stats costs a second, which a
# short match would feel.

#: Two-sided 95%: the interval every summary reports.
CONFIDENCE = 0.95


def score_to_elo(score: float) -> float:
    """Logistic Elo difference of an expected score (``+-inf`` at 1 and 0)."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_to_score(elo: float) -> float:
    """Expected score of a logistic Elo difference."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference with its confidence interval (all logistic Elo)."""

    elo: float
    low: float
    high: float
    score: float
    stderr: float        # of the mean score per game (or per pair, halved)

    @property
    def margin(self) -> float:
        """Half the interval's width, as ``elo +- margin`` (cutechess prints it so)."""
        return (self.high - self.low) / 2.0


def _estimate(values: np.ndarray, counts: Sequence[int], confidence: float) -> EloEstimate:
    counts_a = np.asarray(counts, dtype=np.float64)
    n = counts_a.sum()
    if n <= 0:
        return EloEstimate(0.0, -math.inf, math.inf, 0.5, math.inf)
    mean = float(np.dot(values, counts_a) / n)
    var = float(np.dot((values - mean) ** 2, counts_a) / n)
    stderr = math.sqrt(var / n)
    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
    return EloEstimate(score_to_elo(mean), score_to_elo(mean - z * stderr),
                       score_to_elo(mean + z * stderr), mean, stderr)


def elo_trinomial(wins: int, losses: int, draws: int,
                  confidence: float = CONFIDENCE) -> EloEstimate:
    """Elo and interval from game results: the normal approximation of the mean score
    with the per-game variance, mapped to Elo (as cutechess-cli reports it)."""
    return _estimate(np.array([1.0, 0.0, 0.5]), [wins, losses, draws], confidence)


PAIR_SCORES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])   # points of a pair / 2


def elo_pentanomial(pairs: Sequence[int], confidence: float = CONFIDENCE) -> EloEstimate:
    """Elo and interval from game-pair counts ``[0, 1/2, 1, 3/2, 2 points]``: the
    normal approximation of the mean pair score with the per-pair variance (fishtest)."""
    if len(pairs) != 5:
        raise ValueError(f"pentanomial counts need 5 entries, got {len(pairs)}")
    return _estimate(PAIR_SCORES, pairs, confidence)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95% interval of a proportion k / n ((0, 1) for n = 0)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: the probability that the first player is the stronger,
    from wins and losses (draws carry no information about it)."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def sign_test_p(wins: int, losses: int) -> float:
    """The report's conservative sign test: two-sided binomial p-value of wins against
    losses, draws left out (1 when no game was decided)."""
    from scipy.stats import binomtest

    if wins + losses == 0:
        return 1.0
    return float(binomtest(wins, wins + losses, 0.5, alternative="two-sided").pvalue)


def _mle_with_mean(values: np.ndarray, probs: np.ndarray, mean: float) -> np.ndarray:
    """The distribution on ``values`` closest to ``probs`` (maximum likelihood of the
    observed frequencies) whose expectation is ``mean``: ``p_i / (1 + x (a_i - mean))``
    with the x that makes it sum to 1."""
    from scipy.optimize import brentq

    d = values - mean
    lo, hi = -1.0 / d.max() + 1e-12, -1.0 / d.min() - 1e-12   # keep every p_i > 0

    def excess(x: float) -> float:
        return float(np.sum(probs * d / (1.0 + x * d)))

    x = brentq(excess, lo, hi, xtol=1e-15)
    p = probs / (1.0 + x * d)
    return p / p.sum()


def gsprt_llr(counts: Sequence[int], elo0: float, elo1: float,
              values: Sequence[float] | None = None) -> float:
    """Log-likelihood ratio of H1 (Elo = ``elo1``) against H0 (Elo = ``elo0``) for the
    outcome counts ``counts`` over the scores ``values``: trinomial ``[W, L, D]`` by
    default, or pentanomial (five counts). Logistic Elo; fishtest's exact GSPRT.

    Empty outcomes are regularised with 1e-3 of a count, as fishtest does, so that the
    maximum-likelihood distributions exist from the first game on.
    """
    counts_a = np.asarray(counts, dtype=np.float64)
    if values is None:
        values = [1.0, 0.0, 0.5] if len(counts_a) == 3 else list(PAIR_SCORES)
    vals = np.asarray(values, dtype=np.float64)
    if len(vals) != len(counts_a):
        raise ValueError("counts and values differ in length")
    if counts_a.sum() == 0:
        return 0.0
    reg = np.where(counts_a > 0, counts_a, 1e-3)
    probs = reg / reg.sum()
    p0 = _mle_with_mean(vals, probs, elo_to_score(elo0))
    p1 = _mle_with_mean(vals, probs, elo_to_score(elo1))
    return float(np.sum(counts_a * np.log(p1 / p0)))


@dataclass(frozen=True)
class Sprt:
    """A sequential test of ``elo0`` against ``elo1`` with error rates alpha and beta."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"SPRT needs elo0 < elo1, got {self.elo0}, {self.elo1}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError(f"SPRT error rates must be in (0, 0.5), got {self.alpha}, {self.beta}")

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """``elo0,elo1[,alpha,beta]`` as on the command line."""
        try:
            parts = [float(x) for x in text.split(",")]
        except ValueError:
            raise ValueError(f"--sprt expects elo0,elo1[,alpha,beta], got {text!r}") from None
        if len(parts) not in (2, 4):
            raise ValueError(f"--sprt expects elo0,elo1[,alpha,beta], got {text!r}")
        return cls(*parts)

    @property
    def lower(self) -> float:
        """Accept H0 at or below this LLR."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 at or above this LLR."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[int]) -> float:
        return gsprt_llr(counts, self.elo0, self.elo1)

    def decision(self, llr: float) -> str | None:
        """``"H1"`` (elo1 accepted), ``"H0"`` (elo0 accepted) or None (play on)."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None


# -- a rating against opponents of known rating ----------------------------------------------

#: log(10) / 400: the slope of the logistic Elo model at a score of 1/2, per Elo, times 4.
_K = math.log(10.0) / 400.0


@dataclass(frozen=True)
class RatingFit:
    """A player's rating fitted to games against opponents of known ratings.

    ``elo`` is the maximum-likelihood estimate (``+inf`` when every game was won,
    ``-inf`` when every game was lost); ``low`` and ``high`` the profile-likelihood
    interval (``-inf`` / ``+inf`` on an unbounded side); ``stderr`` the standard error
    from the Fisher information at the estimate (``inf`` when the estimate is not
    finite)."""

    elo: float
    low: float
    high: float
    stderr: float
    games: int
    points: float

    @property
    def finite(self) -> bool:
        return math.isfinite(self.elo)


def _rating_loglik(r: float, opp: np.ndarray, s: np.ndarray) -> float:
    """The log-likelihood of rating ``r``: sum of ``s log p + (1 - s) log(1 - p)``,
    ``p = 1 / (1 + 10^((E - r) / 400))``, in a form that neither overflows nor loses
    precision far from the opponents."""
    x = _K * (r - opp)                        # log-odds of winning each game
    # log p = -log(1 + e^-x), log(1 - p) = -log(1 + e^x)
    return float(-np.sum(s * np.logaddexp(0.0, -x) + (1.0 - s) * np.logaddexp(0.0, x)))


def fit_rating(opponents: Sequence[float], scores: Sequence[float],
               confidence: float = CONFIDENCE) -> RatingFit:
    """The rating R of a player from its games: game i was played against an opponent
    rated ``opponents[i]`` and scored ``scores[i]`` (1 a win, 1/2 a draw, 0 a loss).

    The model is the logistic Elo model, ``P(score) = 1 / (1 + 10^((E - R) / 400))``,
    with a draw counted as half a point (half a win and half a loss in the
    likelihood, as BayesElo and Ordo do). R maximises the likelihood: the expected
    points equal the points scored. The interval holds every R whose likelihood ratio
    to the maximum passes the chi-square test with one degree of freedom at
    ``confidence`` (``2 (l(R^) - l(R)) <= 3.84`` at 95%); when every game went one way
    the estimate is infinite and the interval one-sided."""
    from scipy.optimize import brentq
    from scipy.stats import chi2

    opp = np.asarray(opponents, dtype=np.float64)
    s = np.asarray(scores, dtype=np.float64)
    if opp.shape != s.shape or opp.ndim != 1:
        raise ValueError("opponents and scores must be two lists of the same length")
    if np.any((s < 0) | (s > 1)):
        raise ValueError("scores must lie in [0, 1]")
    if not np.all(np.isfinite(opp)):
        raise ValueError("opponents' ratings must be finite")
    n, points = len(s), float(s.sum())
    if n == 0:
        return RatingFit(math.nan, -math.inf, math.inf, math.inf, 0, 0.0)
    cut = chi2.ppf(confidence, 1) / 2.0       # allowed drop of the log-likelihood
    lo_e, hi_e = float(opp.min()), float(opp.max())
    span = 400.0 * 40                           # beyond this, p is 1e-40 from 0 or 1

    def expected(r: float) -> float:
        return float(np.sum(1.0 / (1.0 + np.exp(-_K * (r - opp)))))

    if 0.0 < points < n:
        r_hat = brentq(lambda r: expected(r) - points, lo_e - span, hi_e + span, xtol=1e-9)
        best = _rating_loglik(r_hat, opp, s)
        p = 1.0 / (1.0 + np.exp(-_K * (r_hat - opp)))
        stderr = 1.0 / (_K * math.sqrt(float(np.sum(p * (1.0 - p)))))
    else:
        r_hat = math.inf if points == n else -math.inf
        best = 0.0                             # the supremum, reached at +-inf
        stderr = math.inf

    def drop(r: float) -> float:
        return best - _rating_loglik(r, opp, s) - cut

    low = -math.inf if r_hat == -math.inf or drop(lo_e - span) < 0 else \
        brentq(drop, lo_e - span, r_hat if math.isfinite(r_hat) else hi_e + span, xtol=1e-9)
    high = math.inf if r_hat == math.inf or drop(hi_e + span) < 0 else \
        brentq(drop, r_hat if math.isfinite(r_hat) else lo_e - span, hi_e + span, xtol=1e-9)
    return RatingFit(float(r_hat), float(low), float(high), float(stderr), n, points)

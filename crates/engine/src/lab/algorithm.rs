//! The laboratory's searches by name: what `xiangqi lab --algo` accepts and prints.

use std::fmt;
use std::str::FromStr;

/// The searches of the laboratory, in the order a course would teach them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Minimax with MAX and MIN levels written out; no pruning.
    Minimax,
    /// Minimax in the negamax form; no pruning.
    Negamax,
    /// Fail-soft alpha-beta, moves in generation order.
    AlphaBeta,
    /// Alpha-beta, captures first: most valuable victim, least valuable attacker.
    AlphaBetaMvvLva,
    /// Alpha-beta, moves ordered by the history heuristic.
    AlphaBetaHistory,
    /// Alpha-beta with a Zobrist transposition table (its move tried first).
    AlphaBetaTt,
    /// NegaScout / PVS with the table and the history heuristic (`NegaScout_TT_HH`).
    PvsTtHistory,
    /// The same, by iterative deepening with aspiration windows.
    PvsIdAspiration,
    /// The engine's full search to the same depth (one thread, no book), for comparison.
    Engine,
    /// Ablation: NegaScout alone, moves in generation order.
    Pvs,
    /// Ablation: NegaScout with the table only.
    PvsTt,
    /// Ablation: NegaScout with the history heuristic only.
    PvsHistory,
    /// Alpha-beta with captures first and two killer moves a ply after them.
    AlphaBetaKiller,
    /// Alpha-beta with captures first and a quiescence search at the horizon, its captures
    /// in generation order.
    AlphaBetaQuiescence,
    /// The same, the quiescence search's captures in MVV-LVA order.
    AlphaBetaQuiescenceMvvLva,
    /// Alpha-beta with captures first and null-move pruning.
    AlphaBetaNullMove,
    /// Alpha-beta with captures first and late-move reductions.
    AlphaBetaLmr,
}

impl Algorithm {
    /// The nine algorithms `xiangqi lab --algo all` runs.
    pub const ALL: [Algorithm; 9] = [
        Algorithm::Minimax,
        Algorithm::Negamax,
        Algorithm::AlphaBeta,
        Algorithm::AlphaBetaMvvLva,
        Algorithm::AlphaBetaHistory,
        Algorithm::AlphaBetaTt,
        Algorithm::PvsTtHistory,
        Algorithm::PvsIdAspiration,
        Algorithm::Engine,
    ];

    /// NegaScout without one or both of its helpers: what each adds to `pvs-tt-history`.
    pub const ABLATIONS: [Algorithm; 3] = [Algorithm::Pvs, Algorithm::PvsTt, Algorithm::PvsHistory];

    /// The engine's ideas, each added alone to `alphabeta-mvvlva`.
    pub const IDEAS: [Algorithm; 5] = [
        Algorithm::AlphaBetaKiller,
        Algorithm::AlphaBetaQuiescence,
        Algorithm::AlphaBetaQuiescenceMvvLva,
        Algorithm::AlphaBetaNullMove,
        Algorithm::AlphaBetaLmr,
    ];

    /// Every algorithm: the nine of `all`, the ablations and the ideas.
    pub fn every() -> impl Iterator<Item = Algorithm> {
        Algorithm::ALL
            .into_iter()
            .chain(Algorithm::ABLATIONS)
            .chain(Algorithm::IDEAS)
    }

    /// The name on the command line and in the output.
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::Negamax => "negamax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::AlphaBetaMvvLva => "alphabeta-mvvlva",
            Algorithm::AlphaBetaHistory => "alphabeta-history",
            Algorithm::AlphaBetaTt => "alphabeta-tt",
            Algorithm::PvsTtHistory => "pvs-tt-history",
            Algorithm::PvsIdAspiration => "pvs-id-aspiration",
            Algorithm::Engine => "engine",
            Algorithm::Pvs => "pvs",
            Algorithm::PvsTt => "pvs-tt",
            Algorithm::PvsHistory => "pvs-history",
            Algorithm::AlphaBetaKiller => "alphabeta-killer",
            Algorithm::AlphaBetaQuiescence => "alphabeta-qs",
            Algorithm::AlphaBetaQuiescenceMvvLva => "alphabeta-qs-mvvlva",
            Algorithm::AlphaBetaNullMove => "alphabeta-nullmove",
            Algorithm::AlphaBetaLmr => "alphabeta-lmr",
        }
    }

    /// Whether the search is the laboratory's own, counting leaves and cutoffs (the engine
    /// reports only its nodes).
    pub const fn counts_tree(self) -> bool {
        !matches!(self, Algorithm::Engine)
    }

    /// Whether its value must equal minimax's at the same depth: all but the engine and the
    /// ideas that change what is searched (a quiescence search looks past the horizon on
    /// purpose; null-move pruning and reductions risk missing a move for a smaller tree).
    pub const fn is_exact(self) -> bool {
        !matches!(
            self,
            Algorithm::Engine
                | Algorithm::AlphaBetaQuiescence
                | Algorithm::AlphaBetaQuiescenceMvvLva
                | Algorithm::AlphaBetaNullMove
                | Algorithm::AlphaBetaLmr
        )
    }

    /// Whether it keeps a transposition table (allocated before its clock starts).
    pub const fn uses_table(self) -> bool {
        matches!(
            self,
            Algorithm::AlphaBetaTt
                | Algorithm::PvsTtHistory
                | Algorithm::PvsIdAspiration
                | Algorithm::PvsTt
        )
    }

    /// Whether [`run_tree`](super::run_tree) can record its tree: minimax, negamax, the
    /// three plain alpha-beta orders and NegaScout with or without its helpers (a NegaScout
    /// tree shows each re-search and each answer of the table).
    pub const fn records_tree(self) -> bool {
        matches!(
            self,
            Algorithm::Minimax
                | Algorithm::Negamax
                | Algorithm::AlphaBeta
                | Algorithm::AlphaBetaMvvLva
                | Algorithm::AlphaBetaHistory
                | Algorithm::PvsTtHistory
                | Algorithm::Pvs
                | Algorithm::PvsTt
                | Algorithm::PvsHistory
        )
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = UnknownName;

    fn from_str(text: &str) -> Result<Algorithm, UnknownName> {
        Algorithm::every()
            .find(|a| a.name() == text)
            .ok_or_else(|| {
                UnknownName::new("algorithm", text, Algorithm::every().map(Algorithm::name))
            })
    }
}

/// A name that is not an [`Algorithm`]'s or an [`Evaluation`](super::Evaluation)'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} {text:?} (one of: {choices})")]
pub struct UnknownName {
    what: &'static str,
    /// The name given, shortened by [`xiangqi::excerpt`] (it is quoted in messages).
    text: String,
    choices: String,
}

impl UnknownName {
    pub(super) fn new<'a>(
        what: &'static str,
        text: &str,
        choices: impl Iterator<Item = &'a str>,
    ) -> Self {
        UnknownName {
            what,
            text: xiangqi::excerpt(text).to_string(),
            choices: choices.collect::<Vec<_>>().join(", "),
        }
    }
}

//! A game's moves as a tree, and the edits a person makes to it: the main line, and at each
//! move the variations that could have been played instead, to any depth.
//!
//! A node is named by a *path*: `[i]` is the main line's move `i` (from 0); `[i, v, j]` is
//! move `j` of variation `v` of main-line move `i` (the variation replaces move `i`, so it
//! starts from the position before it); `[i, v, j, w, k]` goes one level deeper, and so on.
//! The empty path is the start position. The functions here know lines and paths, not the
//! rules: the caller checks that a move is legal where it goes ([`position_after`]).

use xiangqi::pgn::{RecordMove, MAX_VARIATION_DEPTH};
use xiangqi::{Move, Position};

/// The most moves a game's tree may hold, variations included: every answer about the game
/// carries them all (the main line alone may have [`super::MAX_PLIES`]).
pub const MAX_TREE_MOVES: usize = 20_000;

/// Why an edit of the tree is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TreeError {
    /// The path names no move of the game.
    NoSuchMove,
    /// The edit needs a move in a variation, and this one is in the main line.
    InMainLine,
    /// The variation is the first one already.
    AlreadyFirst,
    /// A new variation would nest deeper than [`MAX_VARIATION_DEPTH`].
    TooDeep,
    /// The tree would hold more than [`MAX_TREE_MOVES`] moves.
    TooBig,
}

impl TreeError {
    /// A short stable name of the reason, which the page translates.
    pub fn code(self) -> &'static str {
        match self {
            TreeError::NoSuchMove => "no_such_move",
            TreeError::InMainLine => "in_main_line",
            TreeError::AlreadyFirst => "already_first",
            TreeError::TooDeep => "too_deep",
            TreeError::TooBig => "too_many_moves",
        }
    }

    /// The reason in English.
    pub fn message(self) -> String {
        match self {
            TreeError::NoSuchMove => "no move of the game is there".into(),
            TreeError::InMainLine => "that move is in the main line, not a variation".into(),
            TreeError::AlreadyFirst => "that variation is the first one already".into(),
            TreeError::TooDeep => {
                format!("variations may not nest deeper than {MAX_VARIATION_DEPTH} levels")
            }
            TreeError::TooBig => {
                format!("a game may hold at most {MAX_TREE_MOVES} moves with its variations")
            }
        }
    }
}

/// Whether `path` has the shape of a node's name: an odd number of steps (or none).
fn well_formed(path: &[usize]) -> bool {
    path.is_empty() || path.len() % 2 == 1
}

/// The line holding node `path` (non-empty) and the node's index in it.
fn locate<'a>(main: &'a [RecordMove], path: &[usize]) -> Option<(&'a [RecordMove], usize)> {
    if !well_formed(path) || path.is_empty() {
        return None;
    }
    let mut line = main;
    for step in path[..path.len() - 1].chunks(2) {
        line = line.get(step[0])?.variations.get(step[1])?;
    }
    let index = *path.last()?;
    (index < line.len()).then_some((line, index))
}

/// [`locate`] for changing the line.
fn locate_mut<'a>(
    main: &'a mut Vec<RecordMove>,
    path: &[usize],
) -> Option<(&'a mut Vec<RecordMove>, usize)> {
    if !well_formed(path) || path.is_empty() {
        return None;
    }
    let mut line = main;
    for step in path[..path.len() - 1].chunks(2) {
        line = line.get_mut(step[0])?.variations.get_mut(step[1])?;
    }
    let index = *path.last()?;
    (index < line.len()).then_some((line, index))
}

/// The move at `path`.
pub fn node<'a>(main: &'a [RecordMove], path: &[usize]) -> Option<&'a RecordMove> {
    locate(main, path).map(|(line, i)| &line[i])
}

/// The move at `path`, to change its comments or glyphs.
pub fn node_mut<'a>(main: &'a mut Vec<RecordMove>, path: &[usize]) -> Option<&'a mut RecordMove> {
    locate_mut(main, path).map(|(line, i)| &mut line[i])
}

/// The moves from the start to node `path`, in order: the main line up to the first branch,
/// then each variation up to the next. `None` when the path names no move.
pub fn moves_to(main: &[RecordMove], path: &[usize]) -> Option<Vec<Move>> {
    if path.is_empty() {
        return Some(Vec::new());
    }
    node(main, path)?;
    let mut moves = Vec::new();
    let mut line = main;
    let mut steps = path;
    while steps.len() > 1 {
        let (branch, variation) = (steps[0], steps[1]);
        moves.extend(line[..branch].iter().map(|m| m.mv));
        line = &line[branch].variations[variation];
        steps = &steps[2..];
    }
    moves.extend(line[..=steps[0]].iter().map(|m| m.mv));
    Some(moves)
}

/// The position after node `path` (the start for the empty path). `None` when the path names
/// no move or a move on the way is not legal.
pub fn position_after(start: &Position, main: &[RecordMove], path: &[usize]) -> Option<Position> {
    let mut pos = start.clone();
    for m in moves_to(main, path)? {
        if !pos.is_legal(m) {
            return None;
        }
        pos.make_move(m);
    }
    Some(pos)
}

/// The node before `path`: the previous move in its line, or the move before the line's
/// branch for a variation's first move; the empty path (the start) before the first move.
pub fn previous(path: &[usize]) -> Vec<usize> {
    match path {
        [] | [0] => Vec::new(),
        [.., last] if *last > 0 => {
            let mut before = path.to_vec();
            *before.last_mut().expect("not empty") -= 1;
            before
        }
        _ => previous(&path[..path.len() - 2]),
    }
}

/// How many moves the tree holds, variations included.
pub fn count(line: &[RecordMove]) -> usize {
    line.iter()
        .map(|m| 1 + m.variations.iter().map(|v| count(v)).sum::<usize>())
        .sum()
}

/// Makes `m` the move after node `at` (the empty path: the first move): the move already there
/// or a variation that starts with it, else a new variation (the line's own continuation, where
/// `at` ends its line). Returns the move's path and whether it is new.
///
/// The caller has checked that `m` is legal after `at`.
pub fn play_after(
    main: &mut Vec<RecordMove>,
    at: &[usize],
    m: Move,
) -> Result<(Vec<usize>, bool), TreeError> {
    let (line, next) = if at.is_empty() {
        (main, 0)
    } else {
        let (line, i) = locate_mut(main, at).ok_or(TreeError::NoSuchMove)?;
        (line, i + 1)
    };
    let mut path = at.to_vec();
    if path.is_empty() {
        path.push(0);
    } else {
        *path.last_mut().expect("not empty") = next;
    }
    let Some(there) = line.get_mut(next) else {
        line.push(RecordMove::new(m));
        return Ok((path, true));
    };
    if there.mv == m {
        return Ok((path, false));
    }
    if path.len() / 2 + 1 > MAX_VARIATION_DEPTH {
        return Err(TreeError::TooDeep);
    }
    path.push(0);
    path.push(0);
    let len = path.len();
    if let Some(v) = there.variations.iter().position(|v| v[0].mv == m) {
        path[len - 2] = v;
        return Ok((path, false));
    }
    there.variations.push(vec![RecordMove::new(m)]);
    path[len - 2] = there.variations.len() - 1;
    Ok((path, true))
}

/// The alternatives at `line[at]`: the line's own continuation from there first, then its
/// variations. The line keeps its moves before `at`.
fn alternatives(line: &mut Vec<RecordMove>, at: usize) -> Vec<Vec<RecordMove>> {
    let mut tail = line.split_off(at);
    let variations = std::mem::take(&mut tail[0].variations);
    let mut all = vec![tail];
    all.extend(variations);
    all
}

/// Puts alternatives back at the end of `line`: the first continues it, the rest are its
/// variations.
fn restore(line: &mut Vec<RecordMove>, mut all: Vec<Vec<RecordMove>>) {
    let mut first = all.remove(0);
    first[0].variations = all;
    line.extend(first);
}

/// Makes the variation holding node `path` its parent line's continuation, and that
/// continuation its first variation (the others keep their order). Returns the node's new
/// path.
pub fn promote(main: &mut Vec<RecordMove>, path: &[usize]) -> Result<Vec<usize>, TreeError> {
    node(main, path).ok_or(TreeError::NoSuchMove)?;
    if path.len() < 3 {
        return Err(TreeError::InMainLine);
    }
    let n = path.len();
    let (branch, variation, index) = (path[n - 3], path[n - 2], path[n - 1]);
    let (line, _) = locate_mut(main, &path[..n - 2]).ok_or(TreeError::NoSuchMove)?;
    let mut all = alternatives(line, branch);
    let chosen = all.remove(variation + 1);
    all.insert(0, chosen);
    restore(line, all);
    let mut moved = path[..n - 2].to_vec();
    *moved.last_mut().expect("not empty") = branch + index;
    Ok(moved)
}

/// Moves the variation holding node `path` one place up among its branch's variations.
/// Returns the node's new path.
pub fn move_up(main: &mut Vec<RecordMove>, path: &[usize]) -> Result<Vec<usize>, TreeError> {
    node(main, path).ok_or(TreeError::NoSuchMove)?;
    if path.len() < 3 {
        return Err(TreeError::InMainLine);
    }
    let n = path.len();
    let variation = path[n - 2];
    if variation == 0 {
        return Err(TreeError::AlreadyFirst);
    }
    let branch = node_mut(main, &path[..n - 2]).ok_or(TreeError::NoSuchMove)?;
    branch.variations.swap(variation - 1, variation);
    let mut moved = path.to_vec();
    moved[n - 2] = variation - 1;
    Ok(moved)
}

/// Deletes node `path` and the moves after it in its line (with their variations); a
/// variation's first move takes the whole variation. Returns the node before it.
pub fn delete_from(main: &mut Vec<RecordMove>, path: &[usize]) -> Result<Vec<usize>, TreeError> {
    node(main, path).ok_or(TreeError::NoSuchMove)?;
    let n = path.len();
    if n >= 3 && path[n - 1] == 0 {
        let branch = node_mut(main, &path[..n - 2]).ok_or(TreeError::NoSuchMove)?;
        branch.variations.remove(path[n - 2]);
    } else {
        let (line, index) = locate_mut(main, path).ok_or(TreeError::NoSuchMove)?;
        line.truncate(index);
    }
    Ok(previous(path))
}

/// Makes `m` the move at `main[at]`, keeping what was there: the main line's continuation from
/// `at` becomes a variation, or the variation that starts with `m` becomes the continuation.
/// `at` may be the end of the line.
pub fn continue_with(main: &mut Vec<RecordMove>, at: usize, m: Move) {
    if at >= main.len() {
        main.push(RecordMove::new(m));
        return;
    }
    if main[at].mv == m {
        return;
    }
    let mut all = alternatives(main, at);
    match all.iter().position(|line| line[0].mv == m) {
        Some(i) => {
            let chosen = all.remove(i);
            all.insert(0, chosen);
        }
        None => all.insert(0, vec![RecordMove::new(m)]),
    }
    restore(main, all);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        Move::new(text[..2].parse().unwrap(), text[2..].parse().unwrap())
    }

    fn line(moves: &[&str]) -> Vec<RecordMove> {
        moves.iter().map(|m| RecordMove::new(mv(m))).collect()
    }

    /// The tree written with its variations in brackets, ICCS moves.
    fn show(line: &[RecordMove]) -> String {
        let mut parts = Vec::new();
        for m in line {
            parts.push(m.mv.to_string());
            for v in &m.variations {
                parts.push(format!("({})", show(v)));
            }
        }
        parts.join(" ")
    }

    /// 1. h2e2 h9g7 2. h0g2, with 1... b9c7 (2. b0c2) and 1... h7e7 as variations.
    fn sample() -> Vec<RecordMove> {
        let mut main = line(&["h2e2", "h9g7", "h0g2"]);
        let mut first = line(&["b9c7", "b0c2"]);
        first[0].comment = Some("the other horse".into());
        main[1].variations = vec![first, line(&["h7e7"])];
        main
    }

    #[test]
    fn paths_name_moves_in_variations_and_lead_there() {
        let main = sample();
        assert_eq!(node(&main, &[1, 0, 1]).unwrap().mv, mv("b0c2"));
        assert_eq!(node(&main, &[1, 1, 0]).unwrap().mv, mv("h7e7"));
        assert!(node(&main, &[1, 2, 0]).is_none());
        assert!(node(&main, &[1, 0]).is_none(), "an even path names no move");
        assert!(node(&main, &[3]).is_none());
        let to: Vec<String> = moves_to(&main, &[1, 0, 1])
            .unwrap()
            .iter()
            .map(Move::to_string)
            .collect();
        assert_eq!(to, ["h2e2", "b9c7", "b0c2"]);
        let pos = position_after(&Position::startpos(), &main, &[1, 0, 1]).unwrap();
        assert!(pos.piece_at("c2".parse().unwrap()).is_some());
        assert_eq!(previous(&[1, 0, 0]), [0]);
        assert_eq!(previous(&[0, 1, 0]), Vec::<usize>::new());
        assert_eq!(previous(&[1, 0, 1]), [1, 0, 0]);
        assert_eq!(count(&main), 6);
    }

    #[test]
    fn a_move_after_a_node_goes_on_finds_or_branches() {
        let mut main = sample();
        // The move already there, and a variation that starts with it: found, not added.
        assert_eq!(
            play_after(&mut main, &[0], mv("h9g7")),
            Ok((vec![1], false))
        );
        assert_eq!(
            play_after(&mut main, &[0], mv("h7e7")),
            Ok((vec![1, 1, 0], false))
        );
        // Another move: a third variation.
        assert_eq!(
            play_after(&mut main, &[0], mv("c6c5")),
            Ok((vec![1, 2, 0], true))
        );
        // At the end of a variation: it goes on.
        assert_eq!(
            play_after(&mut main, &[1, 0, 1], mv("c6c5")),
            Ok((vec![1, 0, 2], true))
        );
        // From the start.
        assert_eq!(
            play_after(&mut main, &[], mv("b2e2")),
            Ok((vec![0, 0, 0], true))
        );
        assert_eq!(
            show(&main),
            "h2e2 (b2e2) h9g7 (b9c7 b0c2 c6c5) (h7e7) (c6c5) h0g2"
        );
        assert_eq!(
            play_after(&mut main, &[5], mv("c6c5")),
            Err(TreeError::NoSuchMove)
        );
    }

    #[test]
    fn promoting_swaps_a_variation_with_its_line_and_keeps_the_others() {
        let mut main = sample();
        assert_eq!(promote(&mut main, &[1, 1, 0]), Ok(vec![1]));
        assert_eq!(show(&main), "h2e2 h7e7 (h9g7 h0g2) (b9c7 b0c2)");
        assert_eq!(promote(&mut main, &[1, 1, 1]), Ok(vec![2]));
        assert_eq!(show(&main), "h2e2 b9c7 (h7e7) (h9g7 h0g2) b0c2");
        assert_eq!(
            main[1].comment.as_deref(),
            Some("the other horse"),
            "comments go with their moves"
        );
        assert_eq!(promote(&mut main, &[1]), Err(TreeError::InMainLine));
    }

    #[test]
    fn variations_move_up_and_are_deleted_with_what_follows() {
        let mut main = sample();
        assert_eq!(move_up(&mut main, &[1, 1, 0]), Ok(vec![1, 0, 0]));
        assert_eq!(show(&main), "h2e2 h9g7 (h7e7) (b9c7 b0c2) h0g2");
        assert_eq!(move_up(&mut main, &[1, 0, 0]), Err(TreeError::AlreadyFirst));
        assert_eq!(delete_from(&mut main, &[1, 1, 1]), Ok(vec![1, 1, 0]));
        assert_eq!(show(&main), "h2e2 h9g7 (h7e7) (b9c7) h0g2");
        assert_eq!(delete_from(&mut main, &[1, 0, 0]), Ok(vec![0]));
        assert_eq!(show(&main), "h2e2 h9g7 (b9c7) h0g2");
        assert_eq!(delete_from(&mut main, &[1]), Ok(vec![0]));
        assert_eq!(show(&main), "h2e2");
    }

    #[test]
    fn continuing_the_main_line_keeps_the_old_continuation_as_a_variation() {
        let mut main = sample();
        continue_with(&mut main, 1, mv("c6c5"));
        assert_eq!(show(&main), "h2e2 c6c5 (h9g7 h0g2) (b9c7 b0c2) (h7e7)");
        continue_with(&mut main, 1, mv("h7e7"));
        assert_eq!(show(&main), "h2e2 h7e7 (c6c5) (h9g7 h0g2) (b9c7 b0c2)");
        continue_with(&mut main, 2, mv("h0g2"));
        assert_eq!(show(&main), "h2e2 h7e7 (c6c5) (h9g7 h0g2) (b9c7 b0c2) h0g2");
    }
}

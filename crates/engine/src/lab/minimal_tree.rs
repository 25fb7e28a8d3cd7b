//! The size of Knuth and Moore's minimal tree: the fewest leaves any alpha-beta search can
//! look at to prove the value of a uniform tree.

/// Leaves of the minimal tree of a uniform tree with `branching` moves at every node, `depth`
/// plies deep: `b^⌈d/2⌉ + b^⌊d/2⌋ − 1` (Knuth and Moore, 1975). Alpha-beta with the best move
/// always first looks at exactly these; minimax looks at all `b^d`. Saturates at `u128::MAX`.
///
/// Why: to prove a value, the side to move must show one good move at each of its nodes and
/// the opponent must have every reply tried at each of its own (one refutation suffices
/// against each of MAX's other moves, and vice versa), so a proof multiplies by `b` only every
/// other ply; the two ways round (MAX's proof and MIN's) share one line, the principal
/// variation, counted twice unless the `− 1`.
///
/// ```
/// use xiangqi_engine::lab::minimal_tree_leaves;
/// assert_eq!(minimal_tree_leaves(40, 4), 3_199); // instead of 40⁴ = 2,560,000
/// ```
pub fn minimal_tree_leaves(branching: u64, depth: u32) -> u128 {
    let b = u128::from(branching);
    let power = |exponent: u32| b.checked_pow(exponent).unwrap_or(u128::MAX);
    let upper = power(depth.div_ceil(2));
    let lower = power(depth / 2);
    match upper.checked_add(lower) {
        Some(sum) => sum.saturating_sub(1),
        None => u128::MAX,
    }
}

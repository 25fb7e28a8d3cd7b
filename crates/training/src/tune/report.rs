//! What the tuner writes: a table of the weights that changed, and the tuned set as a Rust
//! literal with that table above it as comments, ready to paste over `DEFAULT_WEIGHTS` in
//! `crates/engine/src/eval/params.rs`.

use std::fmt::Write as _;
use xiangqi_engine::tuning::Weights;

/// One line per weight that differs: `name  before -> after  (change)`.
pub fn changes(before: &Weights, after: &Weights) -> String {
    let mut old = Vec::new();
    before.visit(|name, value| old.push((name.to_string(), value)));
    let mut new = Vec::new();
    after.visit(|_, value| new.push(value));
    let width = old.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let mut text = String::new();
    for ((name, a), b) in old.iter().zip(new) {
        if *a != b {
            let _ = writeln!(text, "{name:<width$}  {a:>5} -> {b:>5}  ({:+})", b - a);
        }
    }
    if text.is_empty() {
        text.push_str("(no weight changed)\n");
    }
    text
}

/// The output file: a comment header (`summary` lines, then the changes) and the literal.
pub fn tuned_file(before: &Weights, after: &Weights, summary: &[String]) -> String {
    let mut text = String::new();
    for line in summary {
        let _ = writeln!(text, "// {line}");
    }
    text.push_str("//\n// Changes from the starting weights:\n");
    for line in changes(before, after).lines() {
        let _ = writeln!(text, "//   {line}");
    }
    text.push('\n');
    text + &after.to_rust_literal("DEFAULT")
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_engine::tuning::DEFAULT_WEIGHTS;

    #[test]
    fn lists_only_changed_weights() {
        let mut before = DEFAULT_WEIGHTS.clone();
        before.tempo = 16;
        before.material[4].eg = 930;
        let mut after = before.clone();
        after.tempo += 4;
        after.material[4].eg -= 20;
        let table = changes(&before, &after);
        assert_eq!(table.lines().count(), 2, "{table}");
        assert!(table.contains("material.chariot.eg"));
        assert!(table.contains("930 ->   910  (-20)"), "{table}");
        assert!(table.contains("16 ->    20  (+4)"), "{table}");
        assert_eq!(
            changes(&DEFAULT_WEIGHTS, &DEFAULT_WEIGHTS),
            "(no weight changed)\n"
        );
    }

    #[test]
    fn file_holds_summary_changes_and_literal() {
        let mut after = DEFAULT_WEIGHTS.clone();
        after.tempo = 9;
        let file = tuned_file(&DEFAULT_WEIGHTS, &after, &["K 0.006".to_string()]);
        assert!(
            file.starts_with("// K 0.006\n//\n// Changes from the starting weights:\n//   tempo")
        );
        assert!(file.ends_with(&after.to_rust_literal("DEFAULT")));
        assert!(file.contains("    tempo: 9,\n"));
    }
}

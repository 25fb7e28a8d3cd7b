//! `xiangqi puzzles`: the generator's file and how it goes on after a stop, the export others
//! check our puzzles with, and broken files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn xiangqi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(args)
        .output()
        .expect("run xiangqi")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-puzzles-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Small budgets: the test is about the file, not the puzzles' quality.
fn generate(out: &Path, games: &str) -> Output {
    xiangqi(&[
        "puzzles",
        "generate",
        "--out",
        out.to_str().unwrap(),
        "--games",
        games,
        "--seed",
        "1",
        "--levels",
        "2-3",
        "--scan-nodes",
        "1000",
        "--line-nodes",
        "20000",
        "--verify-nodes",
        "60000",
    ])
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

#[test]
fn a_stopped_run_goes_on_to_the_same_file_as_one_run() {
    let dir = scratch("resume");
    let whole = dir.join("whole.tsv");
    let o = generate(&whole, "3");
    assert!(o.status.success(), "{}", text(&o));
    let expected = std::fs::read_to_string(&whole).unwrap();
    assert!(
        expected.lines().filter(|l| !l.starts_with('#')).count() >= 1,
        "three games at levels 2 and 3 give a puzzle: {expected}"
    );

    // One game, then the run extended to three, with a line torn by a crash in between.
    let parts = dir.join("parts.tsv");
    let o = generate(&parts, "1");
    assert!(o.status.success(), "{}", text(&o));
    let mut torn = std::fs::read_to_string(&parts).unwrap();
    torn.push_str("0123456789\t2ba1k3/3Ra4");
    std::fs::write(&parts, torn).unwrap();
    let o = generate(&parts, "3");
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&parts).unwrap(), expected);

    // Nothing is left to do, and the file stays as it is.
    let o = generate(&parts, "3");
    assert!(text(&o).contains("already"), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&parts).unwrap(), expected);

    // The same file with other settings is another run: refused, not mixed.
    let o = xiangqi(&[
        "puzzles",
        "generate",
        "--out",
        parts.to_str().unwrap(),
        "--games",
        "3",
        "--seed",
        "2",
    ]);
    assert!(!o.status.success());
    assert!(text(&o).contains("another run"), "{}", text(&o));

    // Every puzzle exports as five fields, and the file sums up.
    let o = xiangqi(&["puzzles", "export", "--file", parts.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let exported = String::from_utf8_lossy(&o.stdout).into_owned();
    let puzzles = expected.lines().filter(|l| !l.starts_with('#')).count();
    assert_eq!(exported.lines().count(), puzzles);
    assert!(
        exported.lines().all(|l| l.split('\t').count() == 5),
        "{exported}"
    );
    let o = xiangqi(&["puzzles", "stats", "--file", parts.to_str().unwrap()]);
    assert!(
        String::from_utf8_lossy(&o.stdout).starts_with(&format!("puzzles\t{puzzles}\n")),
        "{}",
        text(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_broken_puzzle_file_is_refused_with_its_line() {
    let dir = scratch("broken");
    let file = dir.join("broken.tsv");
    let good = "a1\t4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1\tb0b9\tmate mateIn1 endgame oneMove\t600";
    std::fs::write(
        &file,
        format!("# two puzzles\n{good}\na2\tnot a fen\tb0b9\t\t600\n"),
    )
    .unwrap();
    for command in ["export", "stats"] {
        let o = xiangqi(&["puzzles", command, "--file", file.to_str().unwrap()]);
        assert!(!o.status.success());
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(
            stderr.contains("line 3") && stderr.contains("fen"),
            "{stderr}"
        );
    }
    // Retagging a broken file writes nothing.
    let before = std::fs::read(&file).unwrap();
    let o = xiangqi(&["puzzles", "tag", "--file", file.to_str().unwrap()]);
    assert!(!o.status.success());
    assert_eq!(std::fs::read(&file).unwrap(), before);
    // A good one is retagged in place: the themes the tagger gives, whatever was written.
    std::fs::write(&file, good.replace("mate mateIn1 endgame oneMove", "fork")).unwrap();
    let o = xiangqi(&["puzzles", "tag", "--file", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), format!("{good}\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_shipped_puzzles_export_as_five_fields() {
    let o = xiangqi(&["puzzles", "export"]);
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.lines().count() >= 1000,
        "{} puzzles",
        out.lines().count()
    );
    for line in out.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 5, "{line}");
        assert!(fields[2].split(' ').count() % 2 == 1, "{line}");
    }
    let classic = out
        .lines()
        .find(|l| l.starts_with("qixing-juhui\t"))
        .expect("the classics are exported too");
    assert!(
        classic.contains("classic") && classic.contains("draw"),
        "{classic}"
    );
}

#[test]
fn check_reports_a_line_that_throws_a_win_away_and_agrees_with_a_book_s_mate() {
    let dir = scratch("check");
    let file = dir.join("p.tsv");
    // Red can take Black's only piece; the "solution" steps aside instead.
    std::fs::write(
        &file,
        "hanging\tr4k3/9/9/9/9/9/9/9/9/R2K5 w - - 0 1\ta0b0\tmaterial\t900\n",
    )
    .unwrap();
    let o = xiangqi(&[
        "puzzles",
        "check",
        "--file",
        file.to_str().unwrap(),
        "--nodes",
        "20000",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("1 finding(s)"), "{out}");
    assert!(
        out.contains("move 1 (Red) a0b0") && out.contains("plays a0a9"),
        "{out}"
    );

    let o = xiangqi(&[
        "puzzles",
        "check",
        "--classics",
        "--id",
        "hongmen-suidou",
        "--nodes",
        "100000",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("start mate in 4 for Red, agrees with the verdict")
            && out.contains("mated for Black; 0 finding(s)"),
        "{out}"
    );
    let o = xiangqi(&["puzzles", "check", "--id", "no-such-classic"]);
    assert!(!o.status.success());
    assert!(text(&o).contains("nothing to check"), "{}", text(&o));
}

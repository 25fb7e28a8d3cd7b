//! `xiangqi tb`: tables built into a folder, a position looked up from either side, a material
//! without a table (exit 2), and a damaged file refused.

use std::process::{Command, Output};

fn xiangqi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(args)
        .output()
        .expect("run xiangqi")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

#[test]
fn tables_are_built_probed_and_a_damaged_one_is_refused() {
    let dir = std::env::temp_dir().join(format!("xiangqi-tb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let o = xiangqi(&["tb", "generate", "--dir", d, "KRK", "KPK"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for name in ["KK", "KRK", "KPK"] {
        assert!(dir.join(format!("{name}.xqtb")).is_file(), "{name}");
    }
    let verified = xiangqi(&["tb", "verify", "--dir", d]);
    assert!(
        verified.status.success(),
        "{}",
        String::from_utf8_lossy(&verified.stderr)
    );
    assert!(
        stdout(&verified).starts_with("3 tables, "),
        "{}",
        stdout(&verified)
    );
    assert!(stdout(&verified).contains("every value agrees with its moves"));
    let crosscheck = xiangqi(&["tb", "crosscheck", "--dir", d, "--positions", "6"]);
    assert!(
        crosscheck.status.success(),
        "{}",
        String::from_utf8_lossy(&crosscheck.stderr)
    );
    assert!(
        stdout(&crosscheck).starts_with("3 tables, 18 positions searched to depth 9, "),
        "{}",
        stdout(&crosscheck)
    );
    let probe = |fen: &str| xiangqi(&["tb", "probe", "--dir", d, "--fen", fen]);
    // The engine finds the same mates: a0a8, then the chariot mates on e8 (mate in 2, 3 plies).
    assert_eq!(
        stdout(&probe("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1")),
        "win dtm 3 dtc 3"
    );
    assert_eq!(
        stdout(&probe("4k4/9/9/9/9/9/9/9/9/R2K5 b - - 0 1")),
        "loss dtm 4 dtc 4"
    );
    // With 118 plies played without a capture the mate comes too late.
    assert_eq!(
        stdout(&probe("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 118 90")),
        "win dtm 3 dtc 3 (a draw by the 120-ply rule after 118 plies without a capture)"
    );
    // A table serves both colours: Black's soldier against Red's general.
    assert_eq!(stdout(&probe("4k4/9/9/9/9/9/9/9/9/p2K5 b - - 0 1")), "draw");
    assert_eq!(
        stdout(&probe("3k5/9/9/9/9/4p4/9/9/9/4K4 b - - 0 1")),
        "win dtm 7 dtc 7"
    );

    // Many positions at once, each with its value or why it has none.
    let list = dir.join("positions.txt");
    std::fs::write(
        &list,
        "# a comment\n4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1\n4k4/9/9/9/9/9/9/9/9/RR1K5 w - - 0 1\nnot a fen\n",
    )
    .unwrap();
    let listed = xiangqi(&["tb", "probe", "--dir", d, "--file", list.to_str().unwrap()]);
    assert!(listed.status.success());
    let lines: Vec<String> = stdout(&listed).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].ends_with("# win dtm 3 dtc 3"), "{lines:?}");
    assert!(lines[1].ends_with("# KRRK: no table"), "{lines:?}");
    assert!(lines[2].contains("# not a position"), "{lines:?}");

    let missing = probe("4k4/9/9/9/9/9/9/9/9/RR1K5 w - - 0 1");
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("KRRK: no table"));

    let path = dir.join("KRK.xqtb");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[100] ^= 0x10;
    std::fs::write(&path, bytes).unwrap();
    let damaged = probe("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
    assert!(!damaged.status.success());
    assert!(
        String::from_utf8_lossy(&damaged.stderr).contains("checksum does not match"),
        "{}",
        String::from_utf8_lossy(&damaged.stderr)
    );

    // Generation goes on where it stopped: sound tables are kept, the damaged one built again.
    let again = xiangqi(&["tb", "generate", "--dir", d, "KRK", "KPK"]);
    assert!(again.status.success());
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(said.contains("KK: in "), "{said}");
    assert!(said.contains("KRK.xqtb: refused"), "{said}");
    assert!(said.contains("1 tables built"), "{said}");
    assert_eq!(
        stdout(&probe("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1")),
        "win dtm 3 dtc 3"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

use super::*;

fn line(fen: &str, moves: &str) -> (Position, Vec<Move>) {
    let start = Position::from_fen(fen).unwrap();
    let mut pos = start.clone();
    let moves = moves
        .split(' ')
        .map(|text| {
            let m = xiangqi::parse_move_as(&pos, text, xiangqi::Notation::Iccs).unwrap();
            pos.make_move(m);
            m
        })
        .collect();
    (start, moves)
}

fn themes_of(fen: &str, moves: &str) -> Vec<Theme> {
    let (start, moves) = line(fen, moves);
    themes(&start, &moves)
}

#[test]
fn a_mate_in_one_is_named_with_its_length() {
    // One chariot holds the eighth rank, the other checks on the ninth.
    let themes = themes_of("4k4/R8/9/9/9/9/9/9/9/1R1K5 w", "b0b9");
    assert!(themes.contains(&Theme::Mate), "{themes:?}");
    assert!(themes.contains(&Theme::MateIn(1)), "{themes:?}");
    assert!(themes.contains(&Theme::OneMove), "{themes:?}");
    assert!(!themes.contains(&Theme::Material), "{themes:?}");
}

/// Puzzles the generator found, each checked by hand: (position, solution, themes the tagger
/// must give, themes it must not).
const FOUND: [(&str, &str, &[Theme], &[Theme]); 5] = [
    // 闷宫: the cannon checks over the advisor on d9; the general's other neighbours are its
    // own advisor and horse.
    (
        "2baka3/1R2n4/2n1b4/p3C1P1p/9/4c1B2/2C4rP/8N/N4c3/3AKAB2 w",
        "c3c9",
        &[
            Theme::Mate,
            Theme::MateIn(1),
            Theme::SmotheredMate,
            Theme::OneMove,
        ],
        &[Theme::DoubleCannonMate, Theme::Material],
    ),
    // 重炮: the cannon from b8 to b9 is the screen of the one on a9.
    (
        "C3ka1R1/1C2a4/4br3/3npNn2/p4P2p/9/P3P3P/2N6/9/2BA1KB2 w",
        "b8b9",
        &[Theme::DoubleCannonMate, Theme::MateIn(1)],
        &[Theme::SmotheredMate, Theme::HorseCannonMate],
    ),
    // 马后炮: the cannon checks from f3 with a screen on f2; the horse jumps in front of it
    // and guards e0.
    (
        "3akab2/8R/2n1b4/p1p1p3p/9/2P5P/3nc1p2/B4C3/4A3N/1rCA1KB2 b",
        "e3f3 f2d2 d3f2",
        &[Theme::HorseCannonMate, Theme::MateIn(2), Theme::Short],
        &[Theme::DoubleCannonMate, Theme::DoubleCheck],
    ),
    // The chariot takes the advisor on e8 and goes on to e9: the horse's leg is free, so the
    // horse on e7 checks f9 with it.
    (
        "4kab2/7R1/9/2N6/2PPC4/4n1B2/4N3P/3AB4/4Ar1c1/4K4 w",
        "c6e7 f9e8 h8e8 e9f9 e8e9 f9f8 e9f9",
        &[
            Theme::DoubleCheck,
            Theme::DiscoveredAttack,
            Theme::MateIn(4),
            Theme::VeryLong,
        ],
        &[Theme::Material],
    ),
    // The cannon takes the soldier on e6 with check (over the horse on e8); the elephant
    // blocks and the chariot takes the horse on g7.
    (
        "1rbakabr1/4n1c2/5Rn2/p1p1p3p/6p2/2P6/P3P1P1P/2C1C1N2/R8/1cBAKAB2 w",
        "e2e6 g9e7 f7g7",
        &[Theme::Material, Theme::Short],
        &[Theme::Mate, Theme::Sacrifice, Theme::Endgame],
    ),
];

#[test]
fn found_puzzles_get_the_themes_checked_by_hand() {
    for (fen, moves, must, must_not) in FOUND {
        let themes = themes_of(fen, moves);
        for theme in must {
            assert!(
                themes.contains(theme),
                "{fen} {moves}: {theme} missing from {themes:?}"
            );
        }
        for theme in must_not {
            assert!(
                !themes.contains(theme),
                "{fen} {moves}: {theme} in {themes:?}"
            );
        }
    }
}

#[test]
fn material_counts_the_capture_the_defender_still_has() {
    // After the chariot takes the horse on g7 nothing takes it back: a soldier and a horse.
    let (start, moves) = line(
        "1rbakabr1/4n1c2/5Rn2/p1p1p3p/6p2/2P6/P3P1P1P/2C1C1N2/R8/1cBAKAB2 w",
        "e2e6 g9e7 f7g7",
    );
    assert_eq!(material_won_by(&start, &moves), 500);
    // Stopping after the first capture: a soldier, and the cannon on e6 is not lost.
    assert_eq!(material_won_by(&start, &moves[..1]), 100);
}

#[test]
fn the_general_that_takes_a_file_is_named() {
    // The chariot mates on the d-file; e9, the general's one way out, faces Red's general.
    let themes = themes_of("3k5/R8/9/9/9/7R1/9/9/9/4K4 w", "h4d4");
    assert!(themes.contains(&Theme::FacingGenerals), "{themes:?}");
    // On the ninth rank the chariot covers e9 itself: the general takes no part.
    let themes = themes_of("3k5/R8/9/9/9/7R1/9/9/9/4K4 w", "h4h9");
    assert!(!themes.contains(&Theme::FacingGenerals), "{themes:?}");
}

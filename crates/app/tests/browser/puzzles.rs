//! The puzzles' page: a mate, a material win and a classic composition (a draw to hold)
//! solved by clicking, a mate in one failed on purpose, and the record kept across a reload;
//! a mate in one for each side solved with the keyboard; the page on a phone's screen.

use super::{expect, Page};
use anyhow::Result;
use xiangqi::Move;
use xiangqi_puzzles::{shipped, Puzzle, Theme};

pub fn first_with(theme: Theme) -> &'static Puzzle {
    shipped::puzzles()
        .iter()
        .find(|p| p.themes.contains(&theme))
        .expect("a shipped puzzle with the theme")
}

pub async fn open(page: &Page, url: &str, puzzle: &Puzzle) -> Result<()> {
    let base = url.trim_end_matches('/');
    page.client
        .goto(&format!("{base}/puzzles.html?lang=en&id={}", puzzle.id))
        .await?;
    page.until(
        "the puzzle",
        &format!(
            "document.body.dataset.ready === '1' && document.body.dataset.puzzle === '{}'",
            puzzle.id
        ),
    )
    .await
}

/// Plays the solver's moves of `puzzle`'s solution by clicking, waiting for each reply.
pub async fn solve(page: &Page, puzzle: &Puzzle) -> Result<()> {
    let solver_moves: Vec<&Move> = puzzle.solution.iter().step_by(2).collect();
    for (i, m) in solver_moves.iter().enumerate() {
        page.play(&m.to_string()).await?;
        if i + 1 < solver_moves.len() {
            let reply = puzzle.solution[2 * i + 1].to_string();
            page.until(
                "the defender's reply",
                &format!(
                    "document.getElementById('puzzle-status').textContent === 'Right! Go on.' \
                     && document.querySelector(\"#board [data-at='{}']\")",
                    &reply[2..]
                ),
            )
            .await?;
        }
    }
    page.until("solved", "document.body.dataset.phase === 'solved'")
        .await
}

browser_test! {
    /// The game page links to the puzzles; a mate in two, a material win and a classic draw
    /// are solved by clicking the solution's moves, the rating rises, a wrong move in a mate in one fails
    /// that puzzle with the answer shown, and the record outlives a reload.
    fn puzzles_are_solved_and_failed_by_clicking(page, url) {
        let href = page
            .js("return document.getElementById('puzzles-link').getAttribute('href');")
            .await?;
        expect("the puzzles link", href.as_str().unwrap_or(""), "puzzles.html")?;

        let mate = first_with(Theme::MateIn(2));
        open(page, url, mate).await?;
        expect("the prompt", page.text("#puzzle-prompt").await?.ends_with("mate in 2"), true)?;
        solve(page, mate).await?;
        page.until("the rating after a solve", "Number(document.getElementById('puzzle-rating').textContent) > 1500").await?;

        let material = first_with(Theme::Material);
        open(page, url, material).await?;
        solve(page, material).await?;

        // 双龙戏珠: Red checks for nine moves and holds the draw, the book's line.
        let classic = &xiangqi_puzzles::classic::find("shuanglong-xizhu")
            .expect("the classic is shipped")
            .puzzle;
        open(page, url, classic).await?;
        expect("the classic's prompt", page.text("#puzzle-prompt").await?, "Red · hold the draw for 9 moves".to_string())?;
        expect(
            "the classic's name and book",
            page.text("#puzzle-title").await?.starts_with("双龙戏珠 · A pair of dragons"),
            true,
        )?;
        solve(page, classic).await?;

        let one = first_with(Theme::MateIn(1));
        open(page, url, one).await?;
        let legal = one.position.legal_moves();
        let wrong = legal
            .as_slice()
            .iter()
            .find(|&&m| {
                let mut after = one.position.clone();
                after.make_move(m);
                !after.has_no_legal_move()
            })
            .expect("a move that does not mate");
        page.play(&wrong.to_string()).await?;
        page.until("the failure", "document.body.dataset.phase === 'failed'").await?;
        let answer = page.text("#puzzle-line").await?;
        expect("the answer is shown", answer.starts_with("The answer:"), true)?;
        // In the notation chosen on the game page: Chinese, as nothing else was chosen.
        expect(
            "the answer in Chinese notation",
            answer.chars().any(|c| "车马炮相象仕士帅将兵卒".contains(c)),
            true,
        )?;
        page.until(
            "the record",
            "document.getElementById('puzzle-counts').textContent.startsWith('3 solved of 4 tried')",
        )
        .await?;
        let rating = page.text("#puzzle-rating").await?;

        // Reloaded, the record is the same, and "Next" brings a puzzle not tried yet.
        page.client.refresh().await?;
        page.until("the page again", "document.body.dataset.ready === '1'").await?;
        expect("the rating after a reload", page.text("#puzzle-rating").await?, rating)?;
        let tried = [mate.id.as_str(), material.id.as_str(), classic.id.as_str(), one.id.as_str()];
        page.click("#puzzle-next").await?;
        page.until(
            "a new puzzle",
            &format!("!{tried:?}.includes(document.body.dataset.puzzle)"),
        )
        .await?;
        Ok(())
    }
}

/// The arrow keys that move the puzzles page's cursor from `from` to `to`, on a board turned
/// for Black when Black solves (the arrows turn with it).
fn arrows(from: &str, to: &str, red: bool) -> Vec<&'static str> {
    let (f0, r0) = (from.as_bytes()[0] as i32, from.as_bytes()[1] as i32);
    let (f1, r1) = (to.as_bytes()[0] as i32, to.as_bytes()[1] as i32);
    let dir = if red { 1 } else { -1 };
    let (files, ranks) = ((f1 - f0) * dir, (r1 - r0) * dir);
    let mut keys = Vec::new();
    keys.extend(std::iter::repeat_n(
        if files > 0 { "ArrowRight" } else { "ArrowLeft" },
        files.unsigned_abs() as usize,
    ));
    keys.extend(std::iter::repeat_n(
        if ranks > 0 { "ArrowUp" } else { "ArrowDown" },
        ranks.unsigned_abs() as usize,
    ));
    keys
}

async fn press(page: &Page, key: &str) -> Result<()> {
    page.js(&format!(
        "document.getElementById('board').dispatchEvent(new KeyboardEvent('keydown', {{ key: '{key}', bubbles: true }}))"
    ))
    .await?;
    Ok(())
}

browser_test! {
    /// A mate in one for each side is solved with the keyboard alone: the board takes the
    /// focus, the arrows move the cursor (turned with the board for Black), Enter picks the
    /// piece up and puts it down.
    fn puzzles_are_solved_with_the_keyboard(page, url) {
        for red in [true, false] {
            let puzzle = shipped::puzzles()
                .iter()
                .find(|p| p.themes.contains(&Theme::MateIn(1)) && (p.solver() == xiangqi::Color::Red) == red)
                .expect("a mate in one for each side");
            open(page, url, puzzle).await?;
            // A headless browser whose window lacks the system's focus (Debian's Chromium 148
            // here: `document.hasFocus()` false) moves the active element but holds the focus
            // event back until the window is focused, which it never is; it is delivered by
            // hand then, as the key presses below are.
            page.js(
                "const board = document.getElementById('board'); board.focus(); \
                 if (!document.hasFocus()) board.dispatchEvent(new FocusEvent('focus'));",
            )
            .await?;
            page.until("the cursor", "document.querySelector('#board .cursor') !== null").await?;
            let mv = puzzle.solution[0].to_string();
            let mut at = if red { "e0" } else { "e9" }.to_string();
            for target in [&mv[..2], &mv[2..]] {
                for key in arrows(&at, target, red) {
                    press(page, key).await?;
                }
                press(page, "Enter").await?;
                at = target.to_string();
            }
            page.until("solved by keys", "document.body.dataset.phase === 'solved'").await?;
        }
        Ok(())
    }
}

browser_test! {
    /// On a phone's screen (390 × 844) the puzzles page scrolls only downwards, the board
    /// takes most of the width, every button is a 44-pixel touch target, and a mate in one is
    /// solved by tapping.
    fn the_puzzles_page_fits_a_phone(page, url) {
        page.client.set_window_size(390, 844).await?;
        let puzzle = first_with(Theme::MateIn(1));
        open(page, url, puzzle).await?;
        let layout = page
            .js(
                "const width = window.innerWidth;
                 const board = document.getElementById('board').getBoundingClientRect();
                 const small = [...document.querySelectorAll('button, select, a.button')]
                   .filter((b) => b.offsetParent !== null)
                   .map((b) => [b.id || b.textContent, b.getBoundingClientRect()])
                   .filter(([, r]) => r.height < 44 || r.left < 0 || r.right > width + 0.5)
                   .map(([name]) => name);
                 return {
                   sideways: document.documentElement.scrollWidth > width,
                   board_fits: board.left >= 0 && board.right <= width + 0.5,
                   board_share: Math.round(100 * board.width / width),
                   small,
                 };",
            )
            .await?;
        expect("no sideways scrolling", layout["sideways"].clone(), serde_json::json!(false))?;
        expect("the board within the screen", layout["board_fits"].clone(), serde_json::json!(true))?;
        let share = layout["board_share"].as_u64().unwrap_or(0);
        expect("the board's share of the width (at least 85 %)", share >= 85, true)?;
        expect("buttons too small or off the screen", layout["small"].clone(), serde_json::json!([]))?;
        page.play(&puzzle.solution[0].to_string()).await?;
        page.until("solved by taps", "document.body.dataset.phase === 'solved'").await?;
        Ok(())
    }
}

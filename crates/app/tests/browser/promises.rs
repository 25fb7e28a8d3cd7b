//! What the page promises a player, each tried in a browser of its own: the defects found by
//! playing 25 games on it (issue #35, item 8), one test each.

use super::{expect, Page};
use anyhow::Result;
use fantoccini::actions::{InputSource, MouseActions, PointerAction};
use fantoccini::Locator;
use serde_json::{json, Value};

/// The game the page shows, as the server has it.
pub(super) async fn shown_game(page: &Page) -> Result<Value> {
    let id = page.game_id().await?;
    game_by_id(page, &id).await
}

/// The game with this id, as the server has it.
async fn game_by_id(page: &Page, id: &str) -> Result<Value> {
    Ok(page
        .client
        .execute_async(
            &format!(
                "const done = arguments[arguments.length - 1];
                 fetch('/api/games/{id}').then(r => r.json()).then(done, e => done(null));"
            ),
            vec![],
        )
        .await?)
}

/// Starts a game from the New game dialog on a custom clock.
async fn clock_game(page: &Page, side: &str, minutes: &str, byoyomi: &str) -> Result<()> {
    let before = page.game_id().await?;
    page.click("#new-game").await?;
    page.click(&format!("input[name=side][value={side}]"))
        .await?;
    page.select("#tc-preset", "custom").await?;
    page.type_into("#tc-minutes", minutes).await?;
    page.type_into("#tc-increment", "0").await?;
    page.type_into("#tc-byoyomi", byoyomi).await?;
    page.click("#start-game").await?;
    page.until(
        "the game on the clock",
        &format!(
            "document.body.dataset.gameId !== '{before}' && !document.querySelector('#clock-red').hidden"
        ),
    )
    .await
}

/// Waits for a new game (another id than `before`) and returns it as the server has it.
async fn next_game(page: &Page, before: &str) -> Result<Value> {
    page.until(
        "a new game",
        &format!("document.body.dataset.gameId && document.body.dataset.gameId !== '{before}'"),
    )
    .await?;
    shown_game(page).await
}

/// The editor's status and whether its Play and Analyse buttons can be pressed.
async fn editor_says(page: &Page, what: &str, status: &str, playable: bool) -> Result<()> {
    let disabled = !playable;
    page.until(
        what,
        &format!(
            "{status}.test(document.querySelector('#editor-status').textContent) \
             && ['editor-red', 'editor-black', 'editor-analyse'].every((id) => document.getElementById(id).disabled === {disabled})"
        ),
    )
    .await
}

/// The contrast of the element's text on its background (WCAG's ratio).
const CONTRAST: &str = "
    const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
    const lum = (c) => {
      const [r, g, b] = rgb(c).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const contrast = (el) => {
      const style = getComputedStyle(el);
      const [a, b] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
      return (a + 0.05) / (b + 0.05);
    };";

/// The page's hover styles that apply on a touch screen too (outside `@media (hover: hover)`).
const HOVER_OUTSIDE_MEDIA: &str = "
    const outside = (rules) => [...rules].flatMap((rule) => {
      if (rule.media) return rule.conditionText.includes('hover: hover') ? [] : outside(rule.cssRules);
      return rule.selectorText && rule.selectorText.includes(':hover') ? [rule.selectorText] : [];
    });
    return [...document.styleSheets].flatMap((sheet) => outside(sheet.cssRules));";

/// Moves the mouse over the element and waits until its text reads well on its background.
async fn hover_reads_well(page: &Page, css: &str) -> Result<()> {
    let element = page.client.find(Locator::Css(css)).await?;
    let mouse = MouseActions::new("mouse".into()).then(PointerAction::MoveToElement {
        element,
        duration: None,
        x: 0.0,
        y: 0.0,
    });
    page.client.perform_actions(mouse).await?;
    page.until(
        &format!("{css} hovered, its text readable"),
        &format!(
            "(() => {{ {CONTRAST} const el = document.querySelector(\"{css}\"); \
             return el.matches(':hover') && contrast(el) >= 4.5; }})()"
        ),
    )
    .await
}

/// Loads `text` as a file through the page's Load PGN button.
async fn load_file(page: &Page, name: &str, text: &str) -> Result<()> {
    let file = page.shots.join(name);
    std::fs::write(&file, text)?;
    let path = file.display().to_string();
    page.client
        .find(Locator::Css("#pgn-file"))
        .await?
        .send_keys(&path)
        .await?;
    Ok(())
}

browser_test! {
    /// A FEN with a typo is refused with the server's reason, in either language.
    fn a_pasted_fen_is_refused_with_the_servers_reason(page) {
        let typo = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w";
        page.click("#fen-pgn").await?;
        page.type_into("#paste-in", typo).await?;
        page.click("#paste-go").await?;
        page.until(
            "the server's reason",
            "/letter 'X' in rank 0/.test(document.querySelector('#paste-error').textContent)",
        )
        .await?;
        page.click("#fen-dialog button[value=close]").await?;
        page.click("#lang").await?;
        page.click("#fen-pgn").await?;
        page.type_into("#paste-in", typo).await?;
        page.click("#paste-go").await?;
        page.until(
            "the reason in Chinese, its detail kept",
            "/FEN 格式错误.*'X'/.test(document.querySelector('#paste-error').textContent)",
        )
        .await
    }
}

browser_test! {
    /// The editor's buttons start only games that can be played, and it says why not: an
    /// impossible position, or one where the side to move has already lost or drawn.
    fn the_editor_starts_only_games_that_can_be_played(page) {
        page.click("#editor-btn").await?;
        editor_says(page, "the start position", "/legal position/", true).await?;
        page.click("#editor-clear").await?;
        editor_says(page, "the bare generals, drawn", "/no attacking pieces/", false).await?;
        page.click("#palette [data-tool='R']").await?;
        page.click("#editor-board [data-point='b8']").await?;
        editor_says(page, "a rook for Red", "/legal position/", true).await?;
        page.click("#editor-board [data-point='d0']").await?;
        editor_says(page, "Black in check, Red to move", "/who is not to move, is in check/", false).await?;
        page.select("#editor-turn", "black").await?;
        editor_says(page, "Black checkmated", "/checkmate/", false).await?;
        page.click("#palette [data-tool='']").await?;
        page.click("#editor-board [data-point='d0']").await?;
        editor_says(page, "Black stalemated", "/stalemate/", false).await?;
        page.click("#editor-board [data-point='d9']").await?;
        page.click("#palette [data-tool='k']").await?;
        page.click("#editor-board [data-point='e9']").await?;
        editor_says(page, "the generals facing", "/face/", false).await?;
        // Back to a playable position: Black's general on d9 again, Red to move.
        page.click("#palette [data-tool='']").await?;
        page.click("#editor-board [data-point='e9']").await?;
        page.click("#palette [data-tool='k']").await?;
        page.click("#editor-board [data-point='d9']").await?;
        page.select("#editor-turn", "red").await?;
        editor_says(page, "a playable position again", "/legal position/", true).await?;
        let before = page.game_id().await?;
        page.click("#editor-analyse").await?;
        let game = next_game(page, &before).await?;
        expect("the edited game's start", game["start_fen"].as_str(), Some("3k5/1R7/9/9/9/9/9/9/9/4K4 w - - 0 1"))
    }
}

browser_test! {
    /// A game from a pasted FEN, from the editor, or continued from a record's position may be
    /// on the clock, chosen as for a new game.
    fn games_from_a_position_may_be_on_the_clock(page) {
        let controls = |game: &Value| {
            (
                game["clock"]["red_control"].as_str().unwrap_or("none").to_owned(),
                game["clock"]["black_control"].as_str().unwrap_or("none").to_owned(),
            )
        };
        // A pasted FEN, played as Red (the side of the game shown).
        let before = page.game_id().await?;
        page.click("#fen-pgn").await?;
        // A PGN is played on without a clock: the choice shows for a FEN only.
        page.type_into("#paste-in", "1. h2e2 h9g7 *").await?;
        page.until("no clock for a PGN", "document.querySelector('#paste-clock').hidden").await?;
        page.type_into("#paste-in", "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1").await?;
        page.until("the clock for a FEN", "!document.querySelector('#paste-clock').hidden").await?;
        page.select("#paste-tc-preset", "5+3").await?;
        page.click("#paste-go").await?;
        let game = next_game(page, &before).await?;
        expect("the pasted FEN's clock", controls(&game), ("300+3".into(), "300+3".into()))?;
        page.until(
            "the clocks shown, with their increment",
            "!document.querySelector('#clock-red').hidden \
             && /\\+3 s a move/.test(document.querySelector('#clock-black').textContent)",
        )
        .await?;

        // The editor, playing Black on a clock that gives the computer half the time.
        let before = page.game_id().await?;
        page.click("#editor-btn").await?;
        page.click("#editor-start").await?;
        editor_says(page, "the start position", "/legal position/", true).await?;
        page.select("#editor-tc-preset", "10+5").await?;
        page.select("#editor-tc-computer", "0.5").await?;
        page.debug_shot("editor-clock.png").await?;
        page.click("#editor-black").await?;
        let game = next_game(page, &before).await?;
        expect("the edited game's side", game["human"].as_str(), Some("black"))?;
        // The pasted game, left for another, has its clock paused (the page tells the server
        // in a beacon, which may come a little later).
        let started = std::time::Instant::now();
        while game_by_id(page, &before).await?["clock"]["paused"] != json!(true) {
            if started.elapsed() > super::WAIT {
                anyhow::bail!("the pasted game's clock runs on after another game was opened");
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        expect("the edited game's clock", controls(&game), ("300+2.5".into(), "600+5".into()))?;

        // Continue from here: a position of a record, Black to move.
        page.new_game("both", 1).await?;
        page.play("h2e2").await?;
        page.wait_plies(1).await?;
        page.play("h9g7").await?;
        page.wait_plies(2).await?;
        page.click("#moves > li[data-ply='1']").await?;
        let before = page.game_id().await?;
        page.click("#continue-here").await?;
        page.until("the continue dialog", "document.querySelector('#new-game-dialog').open").await?;
        expect(
            "the side offered",
            page.js("return document.querySelector('input[name=side]:checked').value;").await?,
            json!("black"),
        )?;
        page.select("#tc-preset", "custom").await?;
        page.type_into("#tc-minutes", "3").await?;
        page.type_into("#tc-increment", "2").await?;
        page.type_into("#tc-byoyomi", "0").await?;
        page.select("#tc-computer", "2").await?;
        page.debug_shot("continue.png").await?;
        page.click("#start-game").await?;
        let game = next_game(page, &before).await?;
        expect(
            "the continued game's start",
            game["start_fen"].as_str(),
            Some("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"),
        )?;
        expect("the continued game's side", game["human"].as_str(), Some("black"))?;
        expect("the continued game's clock", controls(&game), ("360+4".into(), "180+2".into()))
    }
}

browser_test! {
    /// While the clock is paused, what the server would refuse cannot be pressed, and the
    /// status says the game is paused.
    fn a_paused_game_says_so_and_offers_only_what_it_allows(page) {
        clock_game(page, "both", "10", "0").await?;
        page.play("h2e2").await?;
        page.wait_plies(1).await?;
        page.click("#undo").await?;
        page.wait_plies(0).await?;
        page.until("Redo", "!document.querySelector('#redo').disabled").await?;
        page.click("#pause").await?;
        page.until(
            "the paused page",
            "document.querySelector('#pause').dataset.paused === 'true' \
             && document.querySelector('#redo').disabled \
             && /paused/.test(document.querySelector('#status').textContent)",
        )
        .await?;
        page.point("h2").await?;
        page.until(
            "why a piece cannot be moved",
            "!document.querySelector('#notice').hidden && /paused/.test(document.querySelector('#notice').textContent)",
        )
        .await?;
        page.click("#pause").await?;
        page.until(
            "the resumed page",
            "!document.querySelector('#redo').disabled \
             && !/paused/.test(document.querySelector('#status').textContent)",
        )
        .await
    }
}

browser_test! {
    /// The clock says that byo-yomi follows the game time, and marks it with a drawing that
    /// needs no emoji font.
    fn the_clock_shows_byoyomi_after_the_game_time(page) {
        let no_emoji = "!document.querySelector('#clock-red').textContent.includes('⏱') \
             && !getComputedStyle(document.querySelector('#clock-red'), '::before').content.includes('⏱')";
        clock_game(page, "both", "0.5", "10").await?;
        page.until(
            "the period to come",
            &format!("/then 10 s a move/.test(document.querySelector('#clock-red').textContent) && {no_emoji}"),
        )
        .await?;
        page.debug_shot("byoyomi-to-come.png").await?;
        clock_game(page, "both", "0", "30").await?;
        page.until(
            "the period running",
            &format!(
                "document.querySelector('#clock-red').classList.contains('byoyomi') \
                 && document.querySelector('#clock-red svg.byoyomi-mark') \
                 && /byo-yomi/.test(document.querySelector('#clock-red').textContent) && {no_emoji}"
            ),
        )
        .await?;
        page.debug_shot("byoyomi.png").await
    }
}

browser_test! {
    /// Once the computer's draw offer is accepted, the end dialog stands alone.
    fn an_accepted_draw_offer_leaves_the_end_dialog_alone(page) {
        page.select("#level", "1").await?;
        let before = page.game_id().await?;
        page.click("#fen-pgn").await?;
        // A general and a soldier on the last rank each: neither can win, and the computer
        // offers a draw after its third move.
        page.type_into("#paste-in", "5k2P/9/9/9/9/9/9/9/9/p2K5 w - - 0 1").await?;
        page.click("#paste-go").await?;
        next_game(page, &before).await?;
        let offered = "document.querySelector('#draw').textContent === 'Accept draw'";
        for plies in (2..=12).step_by(2) {
            if page.js(&format!("return {offered};")).await? == json!(true) {
                break;
            }
            page.play_any(&["d0d1", "d1d0"]).await?;
            page.wait_plies(plies).await?;
        }
        page.until(
            "the computer's offer",
            &format!("{offered} && !document.querySelector('#notice').hidden"),
        )
        .await?;
        page.click("#draw").await?;
        page.until("the end dialog", "document.querySelector('#end-dialog').open").await?;
        expect(
            "the offer's notice over the end dialog",
            page.js("return document.querySelector('#notice').hidden;").await?,
            json!(true),
        )
    }
}

browser_test! {
    /// Giving the first move while asking to play Black is refused in the dialog, never
    /// turned into a game as Red.
    fn the_first_move_handicap_never_changes_the_chosen_side(page) {
        let before = page.game_id().await?;
        page.click("#new-game").await?;
        page.click("input[name=side][value=black]").await?;
        page.select("#handicap", "first-move").await?;
        page.select("#handicap-giver", "computer").await?;
        page.click("#start-game").await?;
        page.until(
            "the reason in the dialog",
            "document.querySelector('#new-game-dialog').open \
             && !document.querySelector('#new-game-error').hidden \
             && /Red/.test(document.querySelector('#new-game-error').textContent)",
        )
        .await?;
        expect("the game shown", page.game_id().await?, before.clone())?;
        page.click("input[name=side][value=red]").await?;
        page.click("#start-game").await?;
        let game = next_game(page, &before).await?;
        expect("the side", game["human"].as_str(), Some("red"))
    }
}

browser_test! {
    /// The primary buttons stay readable under the mouse, in both themes, and no hover style
    /// sticks on a touch screen; the laboratory's too.
    fn primary_buttons_stay_readable_under_the_mouse_and_on_touch(page, url) {
        expect("hover styles for touch screens", page.js(HOVER_OUTSIDE_MEDIA).await?, json!([]))?;
        page.click("#new-game").await?;
        hover_reads_well(page, "#start-game").await?;
        page.click("#new-game-dialog button[value=cancel]").await?;
        page.click("#theme").await?;
        page.click("#new-game").await?;
        hover_reads_well(page, "#start-game").await?;
        page.click("#new-game-dialog button[value=cancel]").await?;
        page.client.goto(&format!("{}/lab?lang=en", url.trim_end_matches('/'))).await?;
        page.until("the lab page", "document.body.dataset.ready === '1'").await?;
        expect("the lab's hover styles for touch screens", page.js(HOVER_OUTSIDE_MEDIA).await?, json!([]))?;
        hover_reads_well(page, "#lab-run").await?;
        hover_reads_well(page, "#lab-tree-run").await
    }
}

browser_test! {
    /// A record that states only its result shows that result, and no reason it does not give.
    fn a_records_bare_result_is_shown_without_a_reason(page) {
        let before = page.game_id().await?;
        load_file(page, "result.pgn", "[Result \"1-0\"]\n\n1. h2e2 h9g7 2. h0g2 1-0\n").await?;
        next_game(page, &before).await?;
        page.until(
            "the record's result",
            "/^Red wins — the result as the record gives it/.test(document.querySelector('#status').textContent)",
        )
        .await?;
        page.click("#games-btn").await?;
        page.until(
            "the games list",
            "[...document.querySelectorAll('#games-list li')].some((li) => /1-0 the result as the record gives it/.test(li.textContent))",
        )
        .await
    }
}

browser_test! {
    /// A file loaded a second time opens the game it made the first time, and says so.
    fn a_file_loaded_twice_opens_its_first_game(page) {
        let text = "[Event \"Twice\"]\n\n1. h2e2 h9g7 2. h0g2 *\n";
        let before = page.game_id().await?;
        load_file(page, "twice.pgn", text).await?;
        let first = next_game(page, &before).await?;
        let id = first["id"].as_str().unwrap_or("").to_owned();
        page.until("the notice to go", "document.querySelector('#notice').hidden").await?;
        load_file(page, "twice.pgn", text).await?;
        page.until(
            "the notice that it was loaded before",
            "!document.querySelector('#notice').hidden && /already/.test(document.querySelector('#notice').textContent)",
        )
        .await?;
        expect("the game shown", page.game_id().await?, id)?;
        page.click("#games-btn").await?;
        page.until("the games list", "document.querySelectorAll('#games-list li').length >= 2").await?;
        expect(
            "the games list",
            page.js("return [...document.querySelectorAll('#games-list li')].filter((li) => /Twice/.test(li.textContent)).length;").await?,
            json!(1),
        )
    }
}

/// The endgame tables of the data directory reach the page: the position editor shows what
/// they say of the position it sets up, and the analysis of a game from it does too.
#[test]
#[cfg_attr(
    browser_missing,
    ignore = "Chromium or chromedriver not found (apt-get install chromium chromium-driver \
              fonts-wqy-microhei)"
)]
fn the_tables_verdict_is_shown_in_the_editor_and_the_analysis() {
    let fen = "3k5/1R7/9/9/9/9/9/9/9/4K4 w - - 0 1";
    let mut tables = xiangqi_tablebase::Tables::with_threads(1);
    let mut files = Vec::new();
    tables.generate("KRK".parse().unwrap(), &mut |table| {
        files.push((
            xiangqi_tablebase::file::file_name(table.material()),
            table.to_bytes(),
        ));
    });
    let value = tables.probe(&xiangqi::Position::from_fen(fen).unwrap());
    let Some(xiangqi_tablebase::Value::Win(plies)) = value else {
        panic!("{fen} is a win in the table: {value:?}");
    };
    let line = format!("Tablebase: win, mate in {} (KRK)", plies.div_ceil(2));
    crate::in_browser_with_data(
        "the_tables_verdict_is_shown_in_the_editor_and_the_analysis",
        |data| {
            let dir = data.join("tablebases");
            std::fs::create_dir_all(&dir).unwrap();
            for (name, bytes) in &files {
                std::fs::write(dir.join(name), bytes).unwrap();
            }
        },
        |page, _url| async move {
            let page = &page;
            page.click("#editor-btn").await?;
            page.click("#editor-clear").await?;
            page.click("#palette [data-tool='R']").await?;
            page.click("#editor-board [data-point='b8']").await?;
            editor_says(page, "a rook for Red", "/legal position/", true).await?;
            let shown = format!(
                "!document.querySelector('#editor-tablebase').hidden \
                 && document.querySelector('#editor-tablebase').textContent.includes({line:?})"
            );
            page.until("the editor's table line", &shown).await?;
            // The best moves under it, each with what it keeps: the mate first.
            let best = format!(
                "document.querySelectorAll('#editor-tablebase .tb-move').length >= 1 \
                 && document.querySelector('#editor-tablebase .tb-move').textContent.endsWith(' mate in {}')",
                plies.div_ceil(2)
            );
            page.until("the editor's best moves", &best).await?;
            let before = page.game_id().await?;
            page.click("#editor-analyse").await?;
            let game = next_game(page, &before).await?;
            expect(
                "the edited game's start",
                game["start_fen"].as_str(),
                Some(fen),
            )?;
            page.click("#analysis-toggle").await?;
            let analysed = format!(
                "!document.querySelector('#tb-line').hidden \
                 && document.querySelector('#tb-line').textContent.includes({line:?})"
            );
            page.until("the analysis's table line", &analysed).await
        },
    );
}

//! What the page promises a player, each tried in a browser of its own: the defects found by
//! playing 25 games on it (issue #35, item 8), one test each.

use super::{expect, Page};
use anyhow::Result;
use serde_json::Value;

/// The game the page shows, as the server has it.
async fn shown_game(page: &Page) -> Result<Value> {
    Ok(page
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch('/api/games/' + document.body.dataset.gameId)
               .then(r => r.json()).then(done, e => done(null));",
            vec![],
        )
        .await?)
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

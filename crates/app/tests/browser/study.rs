//! Studying a game in the browser: a record's variations and comments are shown inline, any
//! move can be shown, a move on an earlier position makes a variation, and comments, glyphs
//! and promotions are edited on the page and kept by the server; the analysis panel shows a
//! stopped search's lines, each with its bound and, where it differs, its depth.

use super::promises::shown_game;
use super::{expect, Page};
use anyhow::Result;
use serde_json::json;

/// A record with a comment before the first move, a comment after it and a variation.
const ANNOTATED: &str = "[Event \"Study\"]\n\n{The central cannon.}\n\
1. h2e2 {Red takes the centre.} (1. g0e2 c6c5) 1... h9g7 2. h0g2 *\n";

/// Loads `text` as a file through the page's Load PGN button.
async fn load(page: &Page, name: &str, text: &str) -> Result<()> {
    let file = page.shots.join(name);
    std::fs::write(&file, text)?;
    page.client
        .find(fantoccini::Locator::Css("#pgn-file"))
        .await?
        .send_keys(&file.display().to_string())
        .await?;
    Ok(())
}

/// Plays `mv` on the position shown (once the page knows its legal moves) and waits for the
/// move list to show the move at `path`.
async fn play_shown(page: &Page, mv: &str, path: &str) -> Result<()> {
    page.until(
        "the legal moves of the position shown",
        "document.body.dataset.legalFen === document.body.dataset.shownFen",
    )
    .await?;
    page.play(mv).await?;
    page.until(
        &format!("the move at {path} shown"),
        &format!("document.querySelector('#moves .vmv.current')?.dataset.path === '{path}'"),
    )
    .await
}

/// The path of the variation move marked as shown, or null.
const SHOWN_PATH: &str =
    "return document.querySelector('#moves .vmv.current')?.dataset.path ?? null;";

browser_test! {
    /// A loaded record shows its comments and variations; a move played on a variation's
    /// position makes a deeper one; a comment and a glyph typed on the page are saved; a
    /// variation is promoted into the main line of a study board.
    fn a_record_is_studied_with_its_variations_and_comments(page) {
        let before = page.game_id().await?;
        // The board's characters are outlines shipped with the page, not text in a font.
        expect(
            "the board's glyphs",
            page.js("return [document.querySelectorAll('#board .piece path.glyph').length, \
                     document.querySelectorAll('#board svg text').length];").await?,
            json!([32, 0]),
        )?;
        load(page, "study.pgn", ANNOTATED).await?;
        page.until(
            "the record with its comments and variation",
            &format!(
                "document.body.dataset.gameId !== '{before}' \
                 && /The central cannon/.test(document.querySelector('#moves').textContent) \
                 && /Red takes the centre/.test(document.querySelector('#moves').textContent) \
                 && document.querySelectorAll('#moves .variation-row .vmv').length === 2"
            ),
        )
        .await?;
        // The opening is named above the move list.
        page.until(
            "the opening's name",
            "!document.querySelector('#game-opening').hidden \
             && /^B05 Central Cannon vs Advancing Left Horse$/.test(document.querySelector('#game-opening').textContent)",
        )
        .await?;
        // The variation's second move is shown, and a move there goes on along the
        // variation: the elephant on e2 stands only in the variation's position.
        page.click("#moves .vmv[data-path='0,0,1']").await?;
        expect("the move shown", page.js(SHOWN_PATH).await?, json!("0,0,1"))?;
        play_shown(page, "e2c4", "0,0,2").await?;
        // A move on the start position makes a second variation of the first move.
        page.click("#first").await?;
        play_shown(page, "b2e2", "0,1,0").await?;
        // A comment and a glyph on it.
        page.type_into("#comment", "The left cannon.").await?;
        page.click("#glyphs button[data-nag='5']").await?;
        page.until(
            "the glyph on the move",
            "/!\\?$/.test(document.querySelector('#moves .vmv.current').textContent)",
        )
        .await?;
        // A variation's first move also has a comment before it.
        page.type_into("#comment-before", "Or the other cannon:").await?;
        page.click("#status").await?;
        page.until(
            "the comment before the variation",
            "/Or the other cannon:/.test(document.querySelector('#moves').textContent)",
        )
        .await?;
        let game = shown_game(page).await?;
        expect(
            "the comment before kept",
            game["moves"][0]["variations"][1][0]["before"].clone(),
            json!("Or the other cannon:"),
        )?;
        expect(
            "the comment kept",
            game["moves"][0]["variations"][1][0]["comment"].clone(),
            json!("The left cannon."),
        )?;
        expect("the glyph kept", game["moves"][0]["variations"][1][0]["nags"].clone(), json!([5]))?;
        page.readme_shot("study.png").await?;
        // Promoting it: the main line starts with the left cannon, the old one a variation.
        page.click("#var-promote").await?;
        page.until(
            "the promoted line",
            "document.querySelector('#moves > li[data-ply=\"1\"].current .mv')?.textContent === '炮八平五'",
        )
        .await?;
        let game = shown_game(page).await?;
        expect("the main line's first move", game["moves"][0]["iccs"].clone(), json!("b2e2"))?;
        expect(
            "the old main line, a variation now",
            game["moves"][0]["variations"][0][0]["iccs"].clone(),
            json!("h2e2"),
        )?;
        page.debug_shot("study-promoted.png").await
    }
}

browser_test! {
    /// A finished review is kept in the game: the blunder's glyph in the move list, the
    /// better line as a variation.
    fn a_review_is_kept_in_the_game_as_glyphs_and_variations(page) {
        let before = page.game_id().await?;
        // Red steps the general up when the chariot could mate; Black takes the chariot.
        let text = "[FEN \"3k5/9/9/9/r8/R8/9/9/9/4K4 w - - 0 1\"]\n\n1. e0e1 a5a4 *\n";
        load(page, "blunder.pgn", text).await?;
        page.until(
            "the loaded game",
            &format!("document.body.dataset.gameId !== '{before}' && document.querySelectorAll('#moves > li[data-ply]').length === 2"),
        )
        .await?;
        page.select("#review-depth", "quick").await?;
        page.click("#review-btn").await?;
        page.until(
            "the finished review and its button",
            "!document.querySelector('#review-keep').hidden",
        )
        .await?;
        page.click("#review-keep").await?;
        page.until(
            "the glyph and the better line in the move list",
            "/\\?\\?/.test(document.querySelector('#moves > li[data-ply=\"1\"] .glyph')?.textContent || '') \
             && /车九平六/.test(document.querySelector('#moves .variation-row')?.textContent || '')",
        )
        .await?;
        let comment = page.js("return document.querySelector('#moves .variation-row .comment')?.textContent || '';").await?;
        expect(
            "the check's scores before the line",
            comment.as_str().is_some_and(|c| c.starts_with("Review, depth ")),
            true,
        )
    }
}

browser_test! {
    /// The analysis panel keeps the lines a search stopped inside a depth sends again: the
    /// first (the move played) at the report's depth, a line not searched again at that depth
    /// with its own depth beside it, and a bound after ≥ or ≤.
    fn a_stopped_searchs_shallower_line_says_its_depth(page) {
        page.until("the game", "document.body.dataset.gameId").await?;
        let shown = page
            .js(
                "return (async () => {
                   const { app } = await import('./assets/js/state.js');
                   const { render } = await import('./assets/js/render.js');
                   document.getElementById('analysis-toggle').checked = true;
                   const line = (depth, score, bound, iccs, chinese) => ({
                     depth, score_red: score, mate_red: null, bound_red: bound,
                     pv: [iccs], pv_names: [{ iccs, chinese, wxf: '' }],
                   });
                   const first = line(9, 47, 'at_least', 'h2e2', '炮二平五');
                   app.game.analysis = {
                     kind: 'analysis', depth: 9, score_red: 47, mate_red: null,
                     bound_red: 'at_least', nodes: 3000, nps: 3000, time_ms: 1000,
                     pv: first.pv, pv_names: first.pv_names,
                     lines: [first, line(9, 20, 'exact', 'h0g2', '马二进三'),
                             line(8, 12, 'exact', 'b2e2', '炮八平五')],
                   };
                   render();
                   return [...document.querySelectorAll('#pv-lines .pv-line')].map((row) =>
                     [...row.querySelectorAll('.pv-score, .pv-depth')].map((e) => e.textContent));
                 })()",
            )
            .await?;
        expect(
            "the further lines: score, and the depth where it is not the report's",
            shown,
            json!([["+0.20"], ["+0.12", "depth 8"]]),
        )?;
        expect("the first line's bound", page.text("#eval-text").await?, "≥ +0.47".to_string())?;
        Ok(())
    }
}

browser_test! {
    /// The analysis panel names its lines in the notation chosen: WXF, then ICCS, where it
    /// wrote Chinese whatever the reader chose.
    fn the_analysis_panel_follows_the_notation_chosen(page) {
        page.until("the game", "document.body.dataset.gameId").await?;
        let shown = page
            .js(
                "return (async () => {
                   const { app } = await import('./assets/js/state.js');
                   const { render } = await import('./assets/js/render.js');
                   document.getElementById('analysis-toggle').checked = true;
                   const line = (score, names) => ({
                     depth: 9, score_red: score, mate_red: null, bound_red: 'exact',
                     pv: names.map((n) => n.iccs), pv_names: names,
                   });
                   const first = line(47, [{ iccs: 'h2e2', chinese: '炮二平五', wxf: 'C2.5' },
                                           { iccs: 'h9g7', chinese: '马8进7', wxf: 'H8+7' }]);
                   const second = line(20, [{ iccs: 'h0g2', chinese: '马二进三', wxf: 'H2+3' }]);
                   app.game.analysis = {
                     kind: 'analysis', depth: 9, score_red: 47, mate_red: null,
                     bound_red: 'exact', nodes: 3000, nps: 3000, time_ms: 1000,
                     pv: first.pv, pv_names: first.pv_names, lines: [first, second],
                   };
                   const texts = () => [document.getElementById('pv').firstChild.textContent,
                     document.querySelector('#pv-lines .pv-line span:nth-child(2)').textContent];
                   const shown = [];
                   for (const notation of ['wxf', 'iccs', 'chinese']) {
                     app.notation = notation;
                     render();
                     shown.push(texts());
                   }
                   return shown;
                 })()",
            )
            .await?;
        expect(
            "the lines in WXF, ICCS and Chinese",
            shown,
            json!([["C2.5 H8+7", "H2+3"], ["h2e2 h9g7", "h0g2"], ["炮二平五 马8进7", "马二进三"]]),
        )?;
        Ok(())
    }
}

//! The two piece sets: the Chinese characters by default, pictograms chosen in the top bar,
//! drawn wherever the page draws pieces and remembered across a reload.

use super::{expect, Page};
use anyhow::Result;
use serde_json::{json, Value};

/// How a board draws its pieces: `[data-piece-set, pieces drawn as characters, pieces drawn
/// as pictograms, pieces in all]`.
async fn drawn(page: &Page, board: &str) -> Result<Value> {
    page.js(&format!(
        "const svg = document.querySelector('{board} svg');
         return [svg.dataset.pieceSet,
                 svg.querySelectorAll('.piece path[data-char]').length,
                 svg.querySelectorAll('.piece path[data-pictogram]').length,
                 svg.querySelectorAll('.piece').length];"
    ))
    .await
}

/// What the board says of each piece and of itself, which must not depend on the set: each
/// point's FEN letter, the board's accessible name, the palette's titles.
const NAMES: &str = "
    const pieces = [...document.querySelectorAll('#board .piece')]
      .map((p) => p.dataset.at + p.dataset.piece).sort().join(' ');
    const titles = [...document.querySelectorAll('#palette .tool')].map((b) => b.title).join(' ');
    return [pieces, document.querySelector('#board svg').getAttribute('aria-label'),
            document.querySelector('#board').getAttribute('aria-label'), titles];";

/// The path a red piece on `square` is drawn with, and its fill colour.
fn red_piece(square: &str) -> String {
    format!(
        "const path = document.querySelector(\"#board .piece[data-at='{square}'] path.glyph\");
         return [path.getAttribute('d'), getComputedStyle(path).fill];"
    )
}

/// The path the editor's palette draws its red chariot with.
const PALETTE_CHARIOT: &str =
    "return document.querySelector(\"#palette .tool[data-tool='R'] path\").getAttribute('d');";

/// The top bar's piece-set button: its label, and what local storage remembers.
const CHOICE: &str = "return [document.querySelector('#pieces').getAttribute('aria-label'),
                              document.querySelector('#pieces').title,
                              localStorage.getItem('xiangqi.pieceSet')];";

browser_test! {
    /// The board draws characters at first; the top bar's button switches every drawing of
    /// pieces to pictograms at once (board, editor palette), the choice outlives a reload and
    /// reaches the laboratory's board, and the button switches back.
    fn pieces_are_drawn_as_characters_or_as_pictograms(page, url) {
        expect("a first visit", drawn(page, "#board").await?, json!(["characters", 32, 0, 32]))?;
        expect(
            "the button before a choice",
            page.js(CHOICE).await?,
            json!(["Pieces as pictograms", "Pieces as pictograms", null]),
        )?;
        let names = page.js(NAMES).await?;
        let chariot = page.js(&red_piece("a0")).await?;
        expect("the red chariot's character", page.js(
            "return document.querySelector(\"#board .piece[data-at='a0'] path.glyph\").dataset.char;",
        ).await?, json!("俥"))?;

        page.click("#pieces").await?;
        // At once: the click redraws before it returns.
        expect("pictograms chosen", drawn(page, "#board").await?, json!(["pictograms", 0, 32, 32]))?;
        expect(
            "the button after the choice",
            page.js(CHOICE).await?,
            json!(["Pieces as Chinese characters", "Pieces as Chinese characters", "pictograms"]),
        )?;
        expect("the names of the pieces and the board", page.js(NAMES).await?, names.clone())?;
        let pictogram = page.js(&red_piece("a0")).await?;
        if pictogram[0] == chariot[0] {
            anyhow::bail!("the chariot is drawn with the same path in both sets: {pictogram}");
        }
        expect("the red chariot's colour", &pictogram[1], &chariot[1])?;
        // One pictogram per piece type, the same for both sides.
        expect(
            "the pictograms of the start position",
            page.js(
                "const shapes = {};
                 for (const p of document.querySelectorAll('#board .piece')) {
                   const type = p.dataset.piece.toLowerCase();
                   (shapes[type] ||= new Set()).add(p.querySelector('path').getAttribute('d'));
                 }
                 const all = Object.values(shapes).map((s) => [...s]);
                 return [Object.keys(shapes).sort().join(''), all.every((s) => s.length === 1),
                         new Set(all.flat()).size];",
            )
            .await?,
            json!(["abcknpr", true, 7]),
        )?;

        // The position editor's board and palette follow.
        page.click("#editor-btn").await?;
        page.until("the editor", "document.querySelector('#editor-dialog').open").await?;
        page.debug_shot("pictograms-editor.png").await?;
        expect("the editor's board", drawn(page, "#editor-board").await?, json!(["pictograms", 0, 32, 32]))?;
        expect(
            "the palette's red chariot",
            page.js(PALETTE_CHARIOT).await?,
            pictogram[0].clone(),
        )?;
        page.click("#editor-dialog button[value=cancel]").await?;
        // For the README: the pictograms on a phone.
        page.client.set_window_size(390, 844).await?;
        page.js("window.scrollTo(0, 0); return true;").await?;
        page.readme_shot("pictograms.png").await?;
        page.click("#theme").await?;
        page.debug_shot("pictograms-dark.png").await?;
        page.click("#theme").await?;
        page.client.set_window_size(1280, 900).await?;

        // Remembered: a reload draws pictograms, and so does the laboratory's board.
        page.client.refresh().await?;
        page.until(
            "the page again",
            "document.body.dataset.gameId && document.querySelectorAll('#board [data-piece]').length === 32",
        )
        .await?;
        expect("after a reload", drawn(page, "#board").await?, json!(["pictograms", 0, 32, 32]))?;
        page.client.goto(&format!("{}/lab?lang=en", url.trim_end_matches('/'))).await?;
        page.until("the lab page", "document.body.dataset.ready === '1'").await?;
        expect("the lab's board", drawn(page, "#lab-board").await?, json!(["pictograms", 0, 32, 32]))?;
        page.client.goto(&format!("{url}?lang=en")).await?;
        page.until(
            "the page again",
            "document.body.dataset.gameId && document.querySelectorAll('#board [data-piece]').length === 32",
        )
        .await?;

        // And back to the characters, remembered too.
        page.click("#pieces").await?;
        expect("characters chosen again", drawn(page, "#board").await?, json!(["characters", 32, 0, 32]))?;
        expect("the red chariot again", page.js(&red_piece("a0")).await?, chariot.clone())?;
        expect(
            "the palette's red chariot again",
            page.js(PALETTE_CHARIOT).await?,
            chariot[0].clone(),
        )?;
        expect("the names of the pieces and the board", page.js(NAMES).await?, names)?;
        expect(
            "the choice remembered",
            page.js("return localStorage.getItem('xiangqi.pieceSet');").await?,
            json!("characters"),
        )
    }
}

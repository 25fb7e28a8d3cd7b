//! What the page promises a player, each tried in a browser of its own: the defects found by
//! playing 25 games on it (issue #35, item 8), one test each.

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

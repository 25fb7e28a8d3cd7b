//! Quick perft timing used during development.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(4);
    let fen = args
        .get(2)
        .cloned()
        .unwrap_or(xiangqi::START_FEN.to_string());
    let mut pos = xiangqi::Position::from_fen(&fen).unwrap();
    let t = std::time::Instant::now();
    let n = xiangqi::perft(&mut pos, depth);
    let s = t.elapsed().as_secs_f64();
    println!("nodes {n} time {s:.3} nps {:.0}", n as f64 / s);
}

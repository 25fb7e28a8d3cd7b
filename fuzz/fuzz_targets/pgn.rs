//! PGN files of any bytes, read in each notation. Invariants: the reader never panics; an error
//! quotes at most a short excerpt; every move it returns is legal where it stands; a game it
//! read, written in any notation, reads back as the same game.

#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi::pgn::{read_pgn, write_pgn, IccsCodec, MoveCodec, NotationCodec};
use xiangqi::{GameRecord, Notation};

/// An error message may quote a few excerpts of the input, never the input itself.
const MAX_ERROR_LEN: usize = 1000;

fn check_game(record: &GameRecord) {
    let mut pos = record.start.clone();
    for m in record.main_line() {
        assert!(pos.is_legal(m), "illegal move {m} in {}", pos.to_fen());
        pos.make_move(m);
    }
    let writers: [(&dyn MoveCodec, &str); 3] = [
        (&IccsCodec, "ICCS"),
        (&NotationCodec(Notation::Wxf), "WXF"),
        (&NotationCodec(Notation::Chinese), "Chinese"),
    ];
    for (codec, format) in writers {
        let text = write_pgn(record, codec, format);
        let again = read_pgn(text.as_bytes(), codec)
            .unwrap_or_else(|e| panic!("a written {format} game does not read back: {e}\n{text}"));
        assert_eq!(again.len(), 1, "{text}");
        assert_eq!(again[0].start.to_fen(), record.start.to_fen(), "{text}");
        assert_eq!(again[0].main_line(), record.main_line(), "{text}");
        // Writing what was read back changes nothing more.
        assert_eq!(write_pgn(&again[0], codec, format), text);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, bytes)) = data.split_first() else {
        return;
    };
    let codec = NotationCodec(Notation::ALL[usize::from(choice) % Notation::ALL.len()]);
    match read_pgn(bytes, &codec) {
        Ok(records) => records.iter().take(3).for_each(check_game),
        Err(e) => {
            let message = e.to_string();
            assert!(message.len() <= MAX_ERROR_LEN, "{} bytes", message.len());
        }
    }
});

//! Reading the GUI's lines with a bound on their length, so that one enormous line (a runaway
//! GUI, a file piped in by mistake) cannot make the engine hold it all in memory.

use std::io::{self, BufRead};

/// The longest line the engine reads, in bytes, not counting its line end: 1 MiB.
///
/// The longest legitimate line is `position startpos moves …` with a whole game. Under the
/// rules as enforced a game has at most about 3,700 plies (31 stretches of fewer than 120 plies
/// between the 30 possible captures); at 7 bytes a move (`a10a9 ` in ranks 1–10) that is some
/// 26 KB. A mebibyte leaves room for 150,000 plies, for GUIs that never stop a game, and is
/// still small to hold.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What [`read_line`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Read {
    /// A line, now in the buffer without its `\n`.
    Line,
    /// A line longer than the limit: the buffer holds its first bytes (up to the limit), the
    /// rest was read and dropped.
    TooLong,
    /// The end of the input: nothing more was read.
    End,
}

/// Reads one line through its `\n` (or the end of the input) into `buf`, keeping at most `max`
/// bytes of it; the rest of a longer line is read and dropped, so the next call starts at the
/// next line whatever came before.
pub fn read_line(reader: &mut impl BufRead, buf: &mut Vec<u8>, max: usize) -> io::Result<Read> {
    buf.clear();
    let mut read_any = false;
    let mut too_long = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            break;
        }
        read_any = true;
        let (content, used, ended) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], i + 1, true),
            None => (available, available.len(), false),
        };
        let room = max - buf.len();
        if content.len() > room {
            too_long = true;
        }
        buf.extend_from_slice(&content[..content.len().min(room)]);
        reader.consume(used);
        if ended {
            break;
        }
    }
    Ok(match (read_any, too_long) {
        (false, _) => Read::End,
        (true, true) => Read::TooLong,
        (true, false) => Read::Line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Cursor};

    /// Every line of `input` as [`read_line`] gives it with limit `max`, read through a tiny
    /// buffer so lines arrive in many pieces.
    fn lines(input: &[u8], max: usize) -> Vec<(Read, String)> {
        let mut reader = BufReader::with_capacity(3, Cursor::new(input.to_vec()));
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            let read = read_line(&mut reader, &mut buf, max).unwrap();
            assert!(buf.len() <= max);
            if read == Read::End {
                return out;
            }
            out.push((read, String::from_utf8_lossy(&buf).into_owned()));
        }
    }

    #[test]
    fn lines_up_to_the_limit_are_read_whole_and_longer_ones_are_cut_and_skipped() {
        let got = lines(b"isready\n12345678\n123456789\nuci\r\n\nlast", 8);
        let want = [
            (Read::Line, "isready"),
            (Read::Line, "12345678"),
            (Read::TooLong, "12345678"),
            (Read::Line, "uci\r"),
            (Read::Line, ""),
            (Read::Line, "last"),
        ];
        let want: Vec<(Read, String)> = want.into_iter().map(|(r, s)| (r, s.into())).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn an_enormous_last_line_without_a_line_end_is_too_long() {
        let mut input = b"go\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 10_000));
        let got = lines(&input, 100);
        assert_eq!(got.len(), 2);
        assert_eq!(got[1], (Read::TooLong, "x".repeat(100)));
    }
}

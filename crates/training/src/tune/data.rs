//! Reads tuning data: one position per line, `FEN;result;score` (the score may be left out),
//! the result being Red's share of the points (1.0 win, 0.5 draw, 0.0 loss). Blank lines and
//! lines starting with `#` are skipped. Errors name the file and line.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use xiangqi::{FenError, Position};
use xiangqi_files::lines::{read_line, Read};
use xiangqi_files::reading::{self, ReadError};

/// The longest line read, in bytes: a FEN, a result and a score take about 100.
pub const MAX_LINE_LEN: usize = 4096;

/// One training position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position.
    pub pos: Position,
    /// The game's result for Red, from 0 to 1.
    pub result: f64,
    /// The search's score for Red, if the line has one.
    pub score: Option<i32>,
}

/// What is wrong with a data file.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The file could not be opened (it is not there, not a regular file, …).
    #[error(transparent)]
    Open(#[from] ReadError),
    /// The file could not be read.
    #[error("cannot read {}: {source}", file.display())]
    Io {
        /// The file.
        file: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line longer than [`MAX_LINE_LEN`], or not UTF-8 text: not a data line, and likely
    /// not a data file.
    #[error("{}:{line}: {why}", file.display())]
    Line {
        /// The file.
        file: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        why: String,
    },
    /// A line without two or three `;`-separated fields.
    #[error("{}:{line}: expected FEN;result;score, found {fields} field(s)", file.display())]
    Fields {
        /// The file.
        file: PathBuf,
        /// 1-based line number.
        line: usize,
        /// How many fields the line had.
        fields: usize,
    },
    /// The FEN does not describe a legal position.
    #[error("{}:{line}: invalid FEN: {source}", file.display())]
    Fen {
        /// The file.
        file: PathBuf,
        /// 1-based line number.
        line: usize,
        /// Why.
        source: FenError,
    },
    /// The result is not a number from 0 to 1.
    #[error("{}:{line}: result {text:?} is not a number from 0 to 1", file.display())]
    Result {
        /// The file.
        file: PathBuf,
        /// 1-based line number.
        line: usize,
        /// The field.
        text: String,
    },
    /// The score is not an integer.
    #[error("{}:{line}: score {text:?} is not an integer", file.display())]
    Score {
        /// The file.
        file: PathBuf,
        /// 1-based line number.
        line: usize,
        /// The field.
        text: String,
    },
}

/// Parses one non-empty data line (`number` is 1-based, for errors).
fn parse_line(file: &Path, number: usize, text: &str) -> Result<Sample, DataError> {
    let fields: Vec<&str> = text.split(';').map(str::trim).collect();
    if !(2..=3).contains(&fields.len()) {
        return Err(DataError::Fields {
            file: file.to_path_buf(),
            line: number,
            fields: fields.len(),
        });
    }
    let pos = Position::from_fen(fields[0]).map_err(|source| DataError::Fen {
        file: file.to_path_buf(),
        line: number,
        source,
    })?;
    let result = fields[1]
        .parse::<f64>()
        .ok()
        .filter(|r| (0.0..=1.0).contains(r))
        .ok_or_else(|| DataError::Result {
            file: file.to_path_buf(),
            line: number,
            text: fields[1].to_string(),
        })?;
    let score = match fields.get(2) {
        None => None,
        Some(text) => Some(text.parse::<i32>().map_err(|_| DataError::Score {
            file: file.to_path_buf(),
            line: number,
            text: text.to_string(),
        })?),
    };
    Ok(Sample { pos, result, score })
}

/// Reads the samples of `reader` (named `file` in errors) into `out`, stopping once `out` holds
/// `limit` samples.
pub fn read_samples(
    file: &Path,
    mut reader: impl BufRead,
    limit: usize,
    out: &mut Vec<Sample>,
) -> Result<(), DataError> {
    let mut buf = Vec::new();
    for index in 0.. {
        if out.len() >= limit {
            break;
        }
        let read =
            read_line(&mut reader, &mut buf, MAX_LINE_LEN).map_err(|source| DataError::Io {
                file: file.to_path_buf(),
                source,
            })?;
        let bad_line = |why: String| DataError::Line {
            file: file.to_path_buf(),
            line: index + 1,
            why,
        };
        let text = match read {
            Read::End => break,
            Read::TooLong => return Err(bad_line(format!("longer than {MAX_LINE_LEN} bytes"))),
            Read::Line => std::str::from_utf8(&buf)
                .map_err(|_| bad_line("not UTF-8 text".to_owned()))?
                .trim(),
        };
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        out.push(parse_line(file, index + 1, text)?);
    }
    Ok(())
}

/// Reads every file in turn, at most `limit` samples in all.
pub fn read_files(files: &[PathBuf], limit: usize) -> Result<Vec<Sample>, DataError> {
    let mut samples = Vec::new();
    for file in files {
        // Read a line at a time, each of at most `MAX_LINE_LEN` bytes.
        let opened = reading::open(file)?;
        read_samples(file, std::io::BufReader::new(opened), limit, &mut samples)?;
    }
    Ok(samples)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Vec<Sample>, DataError> {
        let mut out = Vec::new();
        read_samples(Path::new("d.txt"), text.as_bytes(), usize::MAX, &mut out)?;
        Ok(out)
    }

    fn error(text: &str) -> String {
        read(text).unwrap_err().to_string()
    }

    #[test]
    fn reads_lines_with_and_without_score() {
        let fen = xiangqi::START_FEN;
        let samples = read(&format!("# comment\n{fen};1.0;35\n\n{fen};0.5\n")).unwrap();
        assert_eq!(samples.len(), 2);
        assert_eq!(samples[0].result, 1.0);
        assert_eq!(samples[1].result, 0.5);
        assert_eq!((samples[0].score, samples[1].score), (Some(35), None));
        assert_eq!(samples[1].pos.to_fen(), fen);
    }

    #[test]
    fn errors_name_file_and_line() {
        let fen = xiangqi::START_FEN;
        assert_eq!(
            error(&format!("{fen};1.0;0\n{fen}\n")),
            "d.txt:2: expected FEN;result;score, found 1 field(s)"
        );
        assert!(error("rnbakabnr/9 w;1.0;0").starts_with("d.txt:1: invalid FEN: "));
        assert_eq!(
            error(&format!("\n\n{fen};win;0")),
            "d.txt:3: result \"win\" is not a number from 0 to 1"
        );
        assert_eq!(
            error(&format!("{fen};1.5;0")),
            "d.txt:1: result \"1.5\" is not a number from 0 to 1"
        );
        assert_eq!(
            error(&format!("{fen};0.0;12.5")),
            "d.txt:1: score \"12.5\" is not an integer"
        );
        assert_eq!(
            error(&format!("{fen};0.0;1;extra")),
            "d.txt:1: expected FEN;result;score, found 4 field(s)"
        );
    }

    #[test]
    fn limit_stops_reading() {
        let fen = xiangqi::START_FEN;
        let text = format!("{fen};1.0\n{fen};0.0\n{fen};0.5\nnot even a line\n");
        let mut out = Vec::new();
        read_samples(Path::new("d"), text.as_bytes(), 2, &mut out).unwrap();
        assert_eq!(out.len(), 2);
    }

    #[test]
    fn a_line_too_long_or_not_text_is_refused_by_its_number() {
        let fen = xiangqi::START_FEN;
        let long = "x".repeat(MAX_LINE_LEN + 1);
        assert_eq!(
            error(&format!("{fen};1.0\n{long}\n")),
            "d.txt:2: longer than 4096 bytes"
        );
        let mut out = Vec::new();
        let bytes = b"# a comment\n\xff\xfe;1.0\n";
        let err = read_samples(Path::new("d.txt"), &bytes[..], 10, &mut out).unwrap_err();
        assert_eq!(err.to_string(), "d.txt:2: not UTF-8 text");
    }

    #[test]
    fn missing_file_is_an_error() {
        let err = read_files(&[PathBuf::from("/nonexistent/data.txt")], 10).unwrap_err();
        assert!(err
            .to_string()
            .starts_with("cannot read /nonexistent/data.txt"));
    }
}

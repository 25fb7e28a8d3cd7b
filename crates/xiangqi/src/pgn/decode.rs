//! Bytes of a PGN file to text: the encoding detected, line ends made `\n`.
//!
//! Xiangqi PGN files come in three encodings: older ones from the mainland (XQWizard, xqbase,
//! most of what is found on Chinese sites) in GBK, those from Taiwan and Hong Kong in Big5 with
//! traditional characters (砲, 傌, 俥, 進), newer ones in UTF-8, sometimes with a byte-order
//! mark. Line ends are CRLF (Windows), LF, or rarely a lone CR.

use crate::notation::is_move_character;
use encoding_rs::{Encoding, BIG5, GBK, UTF_8};
use std::borrow::Cow;

/// Decodes a PGN file: a byte-order mark (UTF-8, or UTF-16 for the odd exported file) decides
/// the encoding and is dropped; otherwise valid UTF-8 (also when cut short in the middle of a
/// character, as a truncated download is) is read as UTF-8, and anything else as GBK (GB18030,
/// its superset) or Big5, whichever reads the whole file as Chinese notation better
/// ([`legibility`]; GBK when they tie). Byte sequences that are not valid in the chosen encoding
/// become U+FFFD, so decoding never fails; a damaged move then fails to parse, with its line
/// number. All line ends become `\n`.
pub(crate) fn decode(bytes: &[u8]) -> String {
    let text = match Encoding::for_bom(bytes) {
        Some((encoding, bom_len)) => {
            let body = bytes.get(bom_len..).unwrap_or_default();
            encoding.decode_without_bom_handling(body).0
        }
        None => match std::str::from_utf8(bytes) {
            // `error_len() == None`: only the last character is incomplete.
            Err(e) if e.error_len().is_some() => double_byte(bytes),
            _ => UTF_8.decode_without_bom_handling(bytes).0,
        },
    };
    normalize_line_ends(&text)
}

/// A file in one of the two double-byte encodings, GBK or Big5: the two share their byte
/// ranges, so a Big5 file read as GBK gives Chinese characters too, only the wrong ones, and
/// the whole file decides.
fn double_byte(bytes: &[u8]) -> Cow<'_, str> {
    let (gbk, _) = GBK.decode_without_bom_handling(bytes);
    let (big5, _) = BIG5.decode_without_bom_handling(bytes);
    if legibility(&big5) > legibility(&gbk) {
        big5
    } else {
        gbk
    }
}

/// How well `text` reads as a Xiangqi game: one point for each character of the Chinese move
/// notation (pieces, numerals, directions, in either script), eight off for each character the
/// encoding could not read (U+FFFD) or read as a private-use character, which no real text has.
fn legibility(text: &str) -> i64 {
    text.chars()
        .map(|c| match c {
            '\u{FFFD}' | '\u{E000}'..='\u{F8FF}' => -8,
            c if is_move_character(c) => 1,
            _ => 0,
        })
        .sum()
}

/// Replaces CRLF and lone CR by LF.
pub(crate) fn normalize_line_ends(text: &str) -> String {
    if !text.contains('\r') {
        return text.to_owned();
    }
    text.replace("\r\n", "\n").replace('\r', "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_with_and_without_bom() {
        assert_eq!(decode("炮二平五\r\n".as_bytes()), "炮二平五\n");
        let mut with_bom = vec![0xEF, 0xBB, 0xBF];
        with_bom.extend_from_slice("马８进７".as_bytes());
        assert_eq!(decode(&with_bom), "马８进７");
    }

    #[test]
    fn gbk_and_line_ends() {
        let (gbk, _, _) = GBK.encode("[Red \"许银川\"]\r\n1. 炮二平五\r2. 马二进三\n");
        assert!(std::str::from_utf8(&gbk).is_err());
        assert_eq!(decode(&gbk), "[Red \"许银川\"]\n1. 炮二平五\n2. 马二进三\n");
    }

    #[test]
    fn big5_is_told_from_gbk_by_the_whole_file() {
        let text = "[Red \"許銀川\"]\n1. 炮二平五 馬８進７\n2. 馬二進三 車９平８\n";
        let (big5, _, unmappable) = BIG5.encode(text);
        assert!(!unmappable && std::str::from_utf8(&big5).is_err());
        assert_eq!(decode(&big5), text);
        // GBK stays GBK, even with few moves, and with none at all (a tie).
        let text = "[Red \"许银川\"]\n1. 炮二平五 马８进７\n";
        assert_eq!(decode(&GBK.encode(text).0), text);
        assert_eq!(
            decode(&GBK.encode("[Red \"许银川\"]\n").0),
            "[Red \"许银川\"]\n"
        );
    }

    #[test]
    fn utf16_bom() {
        let mut bytes = vec![0xFF, 0xFE];
        for unit in "1. 炮二平五".encode_utf16() {
            bytes.extend_from_slice(&unit.to_le_bytes());
        }
        assert_eq!(decode(&bytes), "1. 炮二平五");
    }

    #[test]
    fn truncated_utf8_stays_utf8() {
        let bytes = "{开局。}".as_bytes();
        assert_eq!(decode(&bytes[..bytes.len() - 2]), "{开局\u{FFFD}");
    }

    #[test]
    fn damaged_bytes_do_not_fail() {
        // GBK (北 is B1 B1, not UTF-8), then a lead byte with nothing after it.
        assert_eq!(decode(&[0xB1, 0xB1, b'a', 0xC5]), "北a\u{FFFD}");
        assert_eq!(decode(&[]), "");
    }
}

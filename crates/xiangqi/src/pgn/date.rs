//! Calendar dates for game records (the PGN `Date` tag, which the web GUI and the match
//! manager write) and the web GUI's game ids, without a date library.

/// The proleptic Gregorian date `(year, month, day)` of a day count since 1970-01-01
/// (Howard Hinnant's days-to-civil algorithm, in eras of 400 years).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    // Count from 0000-03-01 so that leap days fall at the end of each 400-year era's years.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `yyyy.mm.dd` (UTC), as the PGN `Date` tag writes it, for a time in seconds since 1970.
pub fn pgn_date(unix_seconds: u64) -> String {
    let (y, m, d) = civil_from_days((unix_seconds / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(pgn_date(951_782_400), "2000.02.29");
    }
}

//! The cookie-date algorithm (RFC 6265bis §5.1.1), for `Expires`.

/// <https://httpwg.org/http-extensions/draft-ietf-httpbis-rfc6265bis.html#name-dates>:
/// the cookie-date algorithm. Seconds since the Unix epoch, `None` if it
/// fails to parse.
pub(crate) fn parse_cookie_date(input: &str) -> Option<i64> {
    // Step 1: Using the grammar below, divide the cookie-date into
    // date-tokens. delimiter = %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E.
    let is_delimiter =
        |c: char| matches!(c as u32, 0x09 | 0x20..=0x2F | 0x3B..=0x40 | 0x5B..=0x60 | 0x7B..=0x7E);
    let (mut time, mut day, mut month, mut year) = (None, None, None, None);
    // Step 2: Process each date-token sequentially in the order the
    // date-tokens appear in the cookie-date.
    for token in input.split(is_delimiter).filter(|t| !t.is_empty()) {
        // Step 2.1: If the found-time flag is not set and the token matches
        // the time production (hms-time [ non-digit *OCTET ]).
        if time.is_none() {
            if let Some(hms) = parse_time(token) {
                time = Some(hms);
                continue;
            }
        }
        // Step 2.2: day-of-month = 1*2DIGIT [ non-digit *OCTET ].
        if day.is_none() {
            if let Some(d) = leading_digits(token, 1, 2) {
                day = Some(d);
                continue;
            }
        }
        // Step 2.3: month = the first three characters name a month,
        // case-insensitively.
        if month.is_none() && token.len() >= 3 && token.is_char_boundary(3) {
            const MONTHS: [&str; 12] = [
                "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
            ];
            if let Some(m) = MONTHS
                .iter()
                .position(|m| token[..3].eq_ignore_ascii_case(m))
            {
                month = Some(m as u32 + 1);
                continue;
            }
        }
        // Step 2.4: year = 2*4DIGIT [ non-digit *OCTET ].
        if year.is_none() {
            if let Some(y) = leading_digits(token, 2, 4) {
                year = Some(y);
                continue;
            }
        }
    }
    // Step 3: If the year-value is greater than or equal to 70 and less
    // than or equal to 99, increment the year-value by 1900.
    // Step 4: If the year-value is greater than or equal to 0 and less than
    // or equal to 69, increment the year-value by 2000.
    let year = match year? {
        y @ 70..=99 => y + 1900,
        y @ 0..=69 => y + 2000,
        y => y,
    };
    let (hour, minute, second) = time?;
    let (day, month) = (day?, month?);
    // Step 5: Abort if at least one of the found flags is not set (above,
    // with `?`), the day-of-month-value is less than 1 or greater than 31,
    // the year-value is less than 1601, the hour-value is greater than 23,
    // the minute-value or second-value is greater than 59.
    if !(1..=31).contains(&day) || year < 1601 || hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    // Step 6: Let the parsed-cookie-date be the date whose day-of-month,
    // month, year, hour, minute, and second (in UTC) are the values above.
    // If no such date exists, abort these steps and fail to parse.
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days_in_month = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if day > days_in_month {
        return None;
    }
    // Step 7: Return the parsed-cookie-date as the result.
    let days = days_from_civil(i64::from(year), month, day);
    Some(days * 86400 + i64::from(hour) * 3600 + i64::from(minute) * 60 + i64::from(second))
}

/// Days from 1970-01-01 to the given proleptic Gregorian date.
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month = i64::from(month);
    let day_of_year =
        (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146097 + day_of_era - 719468
}

/// `min..=max` ASCII digits at the start of `token`, followed by nothing
/// or a non-digit.
fn leading_digits(token: &str, min: usize, max: usize) -> Option<u32> {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    if digits < min || digits > max {
        return None;
    }
    token[..digits].parse().ok()
}

/// The time production: hms-time = time-field ":" time-field ":"
/// time-field, time-field = 1*2DIGIT, then nothing or a non-digit.
fn parse_time(token: &str) -> Option<(u32, u32, u32)> {
    let mut parts = token.splitn(3, ':');
    let hour = parts.next()?;
    let minute = parts.next()?;
    let rest = parts.next()?;
    let whole = |s: &str| (1..=2).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit());
    if !whole(hour) || !whole(minute) {
        return None;
    }
    let second = leading_digits(rest, 1, 2)?;
    Some((hour.parse().ok()?, minute.parse().ok()?, second))
}

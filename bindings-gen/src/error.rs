//! Errors with the position in the `.webidl` file they come from.

use std::fmt;
use std::path::{Path, PathBuf};

/// A WebIDL file the generator could not parse or does not support.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenError {
    pub file: PathBuf,
    /// 1-origin.
    pub line: usize,
    /// 1-origin, in characters.
    pub column: usize,
    pub message: String,
}

impl GenError {
    /// An error at byte `offset` of `source` (the text of `file`).
    pub fn at_offset(file: &Path, source: &str, offset: usize, message: impl Into<String>) -> Self {
        let (line, column) = line_column(source, offset);
        GenError {
            file: file.to_owned(),
            line,
            column,
            message: message.into(),
        }
    }
}

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file.display(),
            self.line,
            self.column,
            self.message
        )
    }
}

impl std::error::Error for GenError {}

/// 1-origin line and column (in characters) of byte `offset` in `source`.
pub fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let mut offset = offset;
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

/// The byte offset of `part` in `source`, if `part` is a slice of it.
pub fn offset_of(source: &str, part: &str) -> Option<usize> {
    let start = source.as_ptr() as usize;
    let at = part.as_ptr() as usize;
    (at >= start && at + part.len() <= start + source.len()).then(|| at - start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_one_origin() {
        let src = "ab\ncdé\nx";
        assert_eq!(line_column(src, 0), (1, 1));
        assert_eq!(line_column(src, 3), (2, 1));
        assert_eq!(line_column(src, src.find('x').unwrap()), (3, 1));
        assert_eq!(line_column(src, 7), (2, 4));
        assert_eq!(offset_of(src, &src[3..5]), Some(3));
        assert_eq!(offset_of(src, "elsewhere"), None);
    }
}

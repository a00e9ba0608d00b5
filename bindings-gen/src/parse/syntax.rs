//! Stage 1: a file's text to `weedle2` definitions. A syntax error is
//! reported at the furthest point any kind of definition parsed to.

use weedle::{Definition, Parse};

use super::SourceFile;
use crate::error::{offset_of, GenError};

pub(super) fn replace_exposed_wildcard(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("Exposed") {
        let (before, after) = rest.split_at(i + "Exposed".len());
        out.push_str(before);
        let trimmed = after.trim_start();
        if let Some(star) = trimmed
            .strip_prefix('=')
            .map(str::trim_start)
            .filter(|t| t.starts_with('*'))
        {
            let star_at = after.len() - star.len();
            out.push_str(&after[..star_at]);
            // A one-byte identifier for the one-byte `*` (no global is
            // called `Z`; `exposure` reads it as the wildcard).
            out.push('Z');
            rest = &after[star_at + 1..];
        } else {
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// The definitions of one file, or the position of its first syntax error.
pub(super) fn parse_syntax(file: &SourceFile) -> Result<Vec<Definition<'_>>, GenError> {
    let text = file.text.as_str();
    match weedle::Definitions::parse(text) {
        Ok((rest, defs)) if rest.trim().is_empty() => Ok(defs),
        Ok((rest, _)) => Err(syntax_error(file, rest)),
        Err(_) => Err(syntax_error(file, text)),
    }
}

/// Finds how far the parser got into the definition starting at `rest`, by
/// trying every kind of definition and keeping the one that got furthest.
fn syntax_error(file: &SourceFile, rest: &str) -> GenError {
    fn furthest<'a, T: Parse<'a>>(input: &'a str, best: &mut &'a str) {
        if let Err(weedle::Err::Error(e) | weedle::Err::Failure(e)) = T::parse(input) {
            if e.input.len() < best.len() {
                *best = e.input;
            }
        }
    }
    let start = rest.trim_start();
    let mut best = start;
    furthest::<weedle::InterfaceDefinition>(start, &mut best);
    furthest::<weedle::CallbackInterfaceDefinition>(start, &mut best);
    furthest::<weedle::CallbackDefinition>(start, &mut best);
    furthest::<weedle::DictionaryDefinition>(start, &mut best);
    furthest::<weedle::EnumDefinition>(start, &mut best);
    furthest::<weedle::TypedefDefinition>(start, &mut best);
    furthest::<weedle::InterfaceMixinDefinition>(start, &mut best);
    furthest::<weedle::NamespaceDefinition>(start, &mut best);
    furthest::<weedle::PartialInterfaceDefinition>(start, &mut best);
    // Skip the whitespace and comments the failing parser stopped before.
    let at = skip_trivia(best);
    let offset = offset_of(&file.text, at).unwrap_or(file.text.len());
    let snippet: String = at.lines().next().unwrap_or("").chars().take(40).collect();
    let message = if snippet.is_empty() {
        "syntax error: unexpected end of file (missing `}` or `;`?)".to_owned()
    } else {
        format!("syntax error: unexpected `{}`", snippet.trim_end())
    };
    GenError::at_offset(&file.path, &file.text, offset, message)
}

fn skip_trivia(mut s: &str) -> &str {
    loop {
        let trimmed = s.trim_start();
        if let Some(after) = trimmed.strip_prefix("//") {
            s = after.find('\n').map_or("", |i| &after[i..]);
        } else if let Some(after) = trimmed.strip_prefix("/*") {
            s = after.find("*/").map_or("", |i| &after[i + 2..]);
        } else {
            return trimmed;
        }
    }
}

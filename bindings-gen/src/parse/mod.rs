//! WebIDL text to the resolved model ([`crate::ir`]), with the `weedle2`
//! parser. Every construct the generator does not support is rejected here
//! with the file, line and column it appears at.
//!
//! [`parse_files`] runs the stages in order, each in its module:
//!
//! 1. `syntax`: each file's text to `weedle2` definitions, or the position
//!    of its first syntax error;
//! 2. `resolve`: every top-level name declared, then every definition
//!    resolved into the model (types, arguments, default values, members,
//!    the extended attributes each construct supports);
//! 3. `mixins`: the `includes` statements applied to their interfaces;
//! 4. `validate`: the checks that need every definition resolved.
//!
//! `ext_attrs` reads extended attributes (and `[Exposed]`) for stages 2
//! and 3.

mod ext_attrs;
mod mixins;
mod resolve;
mod syntax;
mod validate;

use std::path::{Path, PathBuf};

use crate::error::{offset_of, GenError};
use crate::ir::*;
use mixins::include_mixins;
use resolve::Resolver;
use syntax::{parse_syntax, replace_exposed_wildcard};
use validate::validate;

/// One `.webidl` file.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: String,
}

/// Parses and resolves a set of files that may refer to each other.
pub fn parse_files(files: &[SourceFile]) -> Result<Definitions, GenError> {
    // weedle2 has no grammar for `[Exposed=*]`; the wildcard is replaced by
    // a one-letter identifier, which keeps every position the same.
    let files: Vec<SourceFile> = files
        .iter()
        .map(|f| SourceFile {
            path: f.path.clone(),
            text: replace_exposed_wildcard(&f.text),
        })
        .collect();
    let files = &files[..];
    let mut parsed = Vec::new();
    for file in files {
        parsed.push((file, parse_syntax(file)?));
    }
    let mut resolver = Resolver::default();
    for (file, defs) in &parsed {
        for def in defs {
            resolver.declare(file, def)?;
        }
    }
    let mut out = Definitions::default();
    for (file, defs) in &parsed {
        for def in defs {
            resolver.resolve(file, def, &mut out)?;
        }
    }
    include_mixins(&mut out)?;
    validate(&out)?;
    Ok(out)
}

/// The position of the first character of `ident` in `file`.
fn loc(file: &SourceFile, ident: &str) -> Location {
    let offset = offset_of(&file.text, ident).unwrap_or(0);
    let (line, column) = crate::error::line_column(&file.text, offset);
    Location {
        file: file.path.clone(),
        line,
        column,
    }
}

fn err(location: &Location, message: impl Into<String>) -> GenError {
    GenError {
        file: location.file.clone(),
        line: location.line,
        column: location.column,
        message: message.into(),
    }
}

/// WebIDL identifiers drop one leading underscore
/// (<https://webidl.spec.whatwg.org/#idl-names>).
fn ident_name(s: &str) -> String {
    s.strip_prefix('_').unwrap_or(s).to_owned()
}

/// The path used in error messages for a file given on the command line.
pub fn display_path(path: &Path) -> String {
    path.display().to_string()
}

/// Operations grouped by name, in the order of each name's first
/// declaration.
pub(crate) fn overload_groups(ops: &[Operation]) -> Vec<Vec<&Operation>> {
    let mut groups: Vec<Vec<&Operation>> = Vec::new();
    for op in ops {
        match groups.iter_mut().find(|g| g[0].name == op.name) {
            Some(group) => group.push(op),
            None => groups.push(vec![op]),
        }
    }
    groups
}

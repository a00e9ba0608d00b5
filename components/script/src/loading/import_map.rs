//! Import maps (<https://html.spec.whatwg.org/multipage/webappapis.html#import-maps>):
//! parsing an import map string, merging a new import map into a global's,
//! and resolving a module specifier through it. Pure logic over `url`
//! and `serde_json` (no SpiderMonkey): `crate::loading::module_loading` turns the
//! errors into the JavaScript exceptions HTML names and prints the
//! warnings.
//!
//! Ordered maps: HTML sorts specifier maps and scopes "in descending
//! order" by code units, so a map's input order never matters (a repeated
//! JSON key keeps its last value, as JSON.parse does). After a merge the
//! maps are sorted again, so that the longest prefix still matches first.

use std::cmp::Ordering;
use std::collections::HashSet;

/// <https://html.spec.whatwg.org/multipage/webappapis.html#module-specifier-map>:
/// entries sorted in descending code-unit order of their keys; a `None`
/// value is a null resolution (blocked).
pub type ModuleSpecifierMap = Vec<(String, Option<url::Url>)>;

/// <https://html.spec.whatwg.org/multipage/webappapis.html#import-map>
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportMap {
    /// <https://html.spec.whatwg.org/multipage/webappapis.html#concept-import-map-imports>
    pub imports: ModuleSpecifierMap,
    /// <https://html.spec.whatwg.org/multipage/webappapis.html#concept-import-map-scopes>:
    /// scope prefix (a serialized URL) → its specifier map, descending.
    pub scopes: Vec<(String, ModuleSpecifierMap)>,
    /// <https://html.spec.whatwg.org/multipage/webappapis.html#concept-import-map-integrity>:
    /// URL → integrity metadata (kept; integrity checks are not performed).
    pub integrity: Vec<(String, String)>,
}

/// Why an import map string is not an import map: HTML throws these while
/// parsing (the caller makes them the result's "error to rethrow").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportMapError {
    /// The text is not JSON: a `SyntaxError` (the caller takes the
    /// engine's own message from `JSON.parse`).
    Syntax(String),
    /// JSON of the wrong shape: a `TypeError` with this message.
    Type(String),
}

/// A parsed import map and the warnings HTML lets the user agent report
/// on the console.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParsedImportMap {
    pub map: ImportMap,
    pub warnings: Vec<String>,
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#specifier-resolution-record>
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SpecifierResolutionRecord {
    pub serialized_base_url: String,
    pub specifier: String,
    /// Whether "specifier as a URL" is non-null and special.
    pub as_url_is_null_or_special: bool,
}

/// A global's import state: its import map and its resolved module set
/// (<https://html.spec.whatwg.org/multipage/webappapis.html#resolved-module-set>).
#[derive(Clone, Debug, Default)]
pub struct ImportMapState {
    pub import_map: ImportMap,
    pub resolved_module_set: Vec<SpecifierResolutionRecord>,
    /// The records already in the set (it is a set: each appended once).
    seen: HashSet<SpecifierResolutionRecord>,
}

/// Code-unit order of two strings (HTML compares strings by UTF-16 code
/// units, which differs from Rust's byte order above U+FFFF).
fn code_unit_cmp(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// Sorts entries in descending code-unit order of their keys, keeping the
/// last of equal keys.
fn sort_descending<V>(entries: Vec<(String, V)>) -> Vec<(String, V)> {
    let mut out: Vec<(String, V)> = Vec::with_capacity(entries.len());
    for (key, value) in entries {
        match out.iter_mut().find(|(k, _)| *k == key) {
            Some(entry) => entry.1 = value,
            None => out.push((key, value)),
        }
    }
    out.sort_by(|a, b| code_unit_cmp(&b.0, &a.0));
    out
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#resolving-a-url-like-module-specifier>
pub fn resolve_url_like_module_specifier(specifier: &str, base_url: &url::Url) -> Option<url::Url> {
    // Step 1: If specifier starts with "/", "./", or "../", then: Let url
    // be the result of URL parsing specifier with baseURL; if url is
    // failure, then return null; return url.
    if specifier.starts_with('/') || specifier.starts_with("./") || specifier.starts_with("../") {
        return base_url.join(specifier).ok();
    }
    // Step 2: Let url be the result of URL parsing specifier (with no base
    // URL). Step 3: If url is failure, then return null. Step 4: Return url.
    url::Url::parse(specifier).ok()
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#parse-an-import-map-string>,
/// given `input` and `base_url`.
pub fn parse_import_map_string(
    input: &str,
    base_url: &url::Url,
) -> Result<ParsedImportMap, ImportMapError> {
    let mut warnings = Vec::new();
    // Step 1: Let parsed be the result of parsing a JSON string to an
    // Infra value given input.
    let parsed: serde_json::Value =
        serde_json::from_str(input).map_err(|e| ImportMapError::Syntax(e.to_string()))?;
    // Step 2: If parsed is not an ordered map, then throw a TypeError
    // indicating that the top-level value needs to be a JSON object.
    let serde_json::Value::Object(parsed) = parsed else {
        return Err(ImportMapError::Type(
            "the top-level value of an import map needs to be a JSON object".to_owned(),
        ));
    };
    // Step 3: Let sortedAndNormalizedImports be an empty ordered map.
    let mut imports = Vec::new();
    // Step 4: If parsed["imports"] exists, then:
    if let Some(value) = parsed.get("imports") {
        // Step 4.1: If parsed["imports"] is not an ordered map, then throw
        // a TypeError indicating that the value for the "imports"
        // top-level key needs to be a JSON object.
        let serde_json::Value::Object(map) = value else {
            return Err(ImportMapError::Type(
                "the value of \"imports\" in an import map needs to be a JSON object".to_owned(),
            ));
        };
        // Step 4.2: Set sortedAndNormalizedImports to the result of
        // sorting and normalizing a module specifier map given
        // parsed["imports"] and baseURL.
        imports = sort_and_normalize_specifier_map(map, base_url, &mut warnings);
    }
    // Step 5: Let sortedAndNormalizedScopes be an empty ordered map.
    let mut scopes = Vec::new();
    // Step 6: If parsed["scopes"] exists, then:
    if let Some(value) = parsed.get("scopes") {
        // Step 6.1: If parsed["scopes"] is not an ordered map, then throw a
        // TypeError indicating that the value for the "scopes" top-level
        // key needs to be a JSON object.
        let serde_json::Value::Object(map) = value else {
            return Err(ImportMapError::Type(
                "the value of \"scopes\" in an import map needs to be a JSON object".to_owned(),
            ));
        };
        // Step 6.2: Set sortedAndNormalizedScopes to the result of sorting
        // and normalizing scopes given parsed["scopes"] and baseURL.
        scopes = sort_and_normalize_scopes(map, base_url, &mut warnings)?;
    }
    // Step 7: Let normalizedIntegrity be an empty ordered map.
    let mut integrity = Vec::new();
    // Step 8: If parsed["integrity"] exists, then:
    if let Some(value) = parsed.get("integrity") {
        // Step 8.1: If parsed["integrity"] is not an ordered map, then
        // throw a TypeError indicating that the value for the "integrity"
        // top-level key needs to be a JSON object.
        let serde_json::Value::Object(map) = value else {
            return Err(ImportMapError::Type(
                "the value of \"integrity\" in an import map needs to be a JSON object".to_owned(),
            ));
        };
        // Step 8.2: Set normalizedIntegrity to the result of normalizing a
        // module integrity map given parsed["integrity"] and baseURL.
        integrity = normalize_integrity_map(map, base_url, &mut warnings);
    }
    // Step 9: If parsed's keys contains any items besides "imports",
    // "scopes", or "integrity", then the user agent should report a
    // warning to the console indicating that an invalid top-level key was
    // present in the import map.
    for key in parsed.keys() {
        if !matches!(key.as_str(), "imports" | "scopes" | "integrity") {
            warnings.push(format!(
                "invalid top-level key {key:?} in an import map (ignored)"
            ));
        }
    }
    // Step 10: Return an import map whose imports are
    // sortedAndNormalizedImports, whose scopes are
    // sortedAndNormalizedScopes, and whose integrity are
    // normalizedIntegrity.
    Ok(ParsedImportMap {
        map: ImportMap {
            imports,
            scopes,
            integrity,
        },
        warnings,
    })
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#sorting-and-normalizing-a-module-specifier-map>
fn sort_and_normalize_specifier_map(
    original: &serde_json::Map<String, serde_json::Value>,
    base_url: &url::Url,
    warnings: &mut Vec<String>,
) -> ModuleSpecifierMap {
    // Step 1: Let normalized be an empty ordered map.
    let mut normalized = Vec::new();
    // Step 2: For each specifierKey → value of originalMap:
    for (specifier_key, value) in original {
        // Step 2.1: Let normalizedSpecifierKey be the result of
        // normalizing a specifier key given specifierKey and baseURL.
        // Step 2.2: If normalizedSpecifierKey is null, then continue.
        let Some(normalized_key) = normalize_specifier_key(specifier_key, base_url, warnings)
        else {
            continue;
        };
        // Step 2.3: If value is not a string, then: the user agent may
        // report a warning to the console indicating that addresses need
        // to be strings; set normalized[normalizedSpecifierKey] to null;
        // continue.
        let serde_json::Value::String(value) = value else {
            warnings.push(format!(
                "the address of {specifier_key:?} in an import map is not a string"
            ));
            normalized.push((normalized_key, None));
            continue;
        };
        // Step 2.4: Let addressURL be the result of resolving a URL-like
        // module specifier given value and baseURL.
        // Step 2.5: If addressURL is null, then: warn, set
        // normalized[normalizedSpecifierKey] to null, continue.
        let Some(address) = resolve_url_like_module_specifier(value, base_url) else {
            warnings.push(format!(
                "the address {value:?} of {specifier_key:?} in an import map is invalid"
            ));
            normalized.push((normalized_key, None));
            continue;
        };
        // Step 2.6: If specifierKey ends with U+002F (/), and the
        // serialization of addressURL does not end with U+002F (/), then:
        // warn, set normalized[normalizedSpecifierKey] to null, continue.
        if specifier_key.ends_with('/') && !address.as_str().ends_with('/') {
            warnings.push(format!(
                "invalid address {address} for package specifier key {specifier_key:?}: package addresses must end with \"/\""
            ));
            normalized.push((normalized_key, None));
            continue;
        }
        // Step 2.7: Set normalized[normalizedSpecifierKey] to addressURL.
        normalized.push((normalized_key, Some(address)));
    }
    // Step 3: Return the result of sorting in descending order normalized,
    // with an entry a being less than an entry b if a's key is code unit
    // less than b's key.
    sort_descending(normalized)
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#normalizing-a-specifier-key>
fn normalize_specifier_key(
    specifier_key: &str,
    base_url: &url::Url,
    warnings: &mut Vec<String>,
) -> Option<String> {
    // Step 1: If specifierKey is the empty string, then: the user agent
    // may report a warning to the console indicating that specifier keys
    // may not be the empty string; return null.
    if specifier_key.is_empty() {
        warnings.push("specifier keys in an import map may not be the empty string".to_owned());
        return None;
    }
    // Step 2: Let url be the result of resolving a URL-like module
    // specifier, given specifierKey and baseURL.
    // Step 3: If url is not null, then return the serialization of url.
    // Step 4: Return specifierKey.
    Some(
        resolve_url_like_module_specifier(specifier_key, base_url)
            .map_or_else(|| specifier_key.to_owned(), String::from),
    )
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#sorting-and-normalizing-scopes>
fn sort_and_normalize_scopes(
    original: &serde_json::Map<String, serde_json::Value>,
    base_url: &url::Url,
    warnings: &mut Vec<String>,
) -> Result<Vec<(String, ModuleSpecifierMap)>, ImportMapError> {
    // Step 1: Let normalized be an empty ordered map.
    let mut normalized = Vec::new();
    // Step 2: For each scopePrefix → potentialSpecifierMap of originalMap:
    for (scope_prefix, potential) in original {
        // Step 2.1: If potentialSpecifierMap is not an ordered map, then
        // throw a TypeError indicating that the value of the scope with
        // prefix scopePrefix needs to be a JSON object.
        let serde_json::Value::Object(potential) = potential else {
            return Err(ImportMapError::Type(format!(
                "the value of the scope {scope_prefix:?} in an import map needs to be a JSON object"
            )));
        };
        // Step 2.2: Let scopePrefixURL be the result of URL parsing
        // scopePrefix with baseURL.
        // Step 2.3: If scopePrefixURL is failure, then: warn, continue.
        let Ok(scope_url) = base_url.join(scope_prefix) else {
            warnings.push(format!(
                "the scope prefix {scope_prefix:?} in an import map is not a valid URL"
            ));
            continue;
        };
        // Step 2.4: Let normalizedScopePrefix be the serialization of
        // scopePrefixURL.
        // Step 2.5: Set normalized[normalizedScopePrefix] to the result of
        // sorting and normalizing a module specifier map given
        // potentialSpecifierMap and baseURL.
        normalized.push((
            String::from(scope_url),
            sort_and_normalize_specifier_map(potential, base_url, warnings),
        ));
    }
    // Step 3: Return the result of sorting in descending order normalized.
    Ok(sort_descending(normalized))
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#normalizing-a-module-integrity-map>
fn normalize_integrity_map(
    original: &serde_json::Map<String, serde_json::Value>,
    base_url: &url::Url,
    warnings: &mut Vec<String>,
) -> Vec<(String, String)> {
    // Step 1: Let normalized be an empty ordered map.
    let mut normalized = Vec::new();
    // Step 2: For each key → value of originalMap:
    for (key, value) in original {
        // Step 2.1: Let resolvedURL be the result of resolving a URL-like
        // module specifier given key and baseURL.
        // Step 2.2: If resolvedURL is null, then: warn, continue.
        let Some(resolved) = resolve_url_like_module_specifier(key, base_url) else {
            warnings.push(format!(
                "the integrity key {key:?} in an import map is not a URL"
            ));
            continue;
        };
        // Step 2.3: If value is not a string, then: warn, continue.
        let serde_json::Value::String(value) = value else {
            warnings.push(format!(
                "the integrity value of {key:?} in an import map is not a string"
            ));
            continue;
        };
        // Step 2.4: Set normalized[resolvedURL] to value.
        normalized.push((String::from(resolved), value.clone()));
    }
    // Step 3: Return normalized.
    normalized
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#resolving-an-imports-match>.
/// `Err` is the TypeError's message.
fn resolve_imports_match(
    normalized_specifier: &str,
    as_url: Option<&url::Url>,
    specifier_map: &ModuleSpecifierMap,
) -> Result<Option<url::Url>, String> {
    // Step 1: For each specifierKey → resolutionResult of specifierMap:
    for (specifier_key, resolution_result) in specifier_map {
        // Step 1.1: If specifierKey is normalizedSpecifier, then:
        if specifier_key == normalized_specifier {
            // Step 1.1.1: If resolutionResult is null, then throw a
            // TypeError indicating that resolution of specifierKey was
            // blocked by a null entry.
            // Step 1.1.2-1.1.3: Return resolutionResult.
            return resolution_result
                .clone()
                .map(Some)
                .ok_or_else(|| format!("the import map blocks {specifier_key:?} (a null entry)"));
        }
        // Step 1.2: If all of the following are true: specifierKey ends
        // with U+002F (/); specifierKey is a code unit prefix of
        // normalizedSpecifier; and either asURL is null, or asURL is
        // special, then:
        if specifier_key.ends_with('/')
            && normalized_specifier.starts_with(specifier_key.as_str())
            && as_url.is_none_or(|u| u.is_special())
        {
            // Step 1.2.1: If resolutionResult is null, then throw a
            // TypeError indicating that the resolution of specifierKey was
            // blocked by a null entry.
            let Some(resolution_result) = resolution_result else {
                return Err(format!(
                    "the import map blocks {normalized_specifier:?} (a null entry for {specifier_key:?})"
                ));
            };
            // Step 1.2.3: Let afterPrefix be the portion of
            // normalizedSpecifier after the initial specifierKey prefix.
            let after_prefix = &normalized_specifier[specifier_key.len()..];
            // Step 1.2.5: Let url be the result of URL parsing afterPrefix
            // with resolutionResult.
            // Step 1.2.6: If url is failure, then throw a TypeError.
            let url = resolution_result.join(after_prefix).map_err(|_| {
                format!(
                    "{normalized_specifier:?}: {after_prefix:?} does not parse relative to {resolution_result}"
                )
            })?;
            // Step 1.2.8: If the serialization of resolutionResult is not a
            // code unit prefix of the serialization of url, then throw a
            // TypeError indicating that the resolution of
            // normalizedSpecifier was blocked due to it backtracking above
            // its prefix specifierKey.
            if !url.as_str().starts_with(resolution_result.as_str()) {
                return Err(format!(
                    "{normalized_specifier:?} backtracks above its import map prefix {specifier_key:?}"
                ));
            }
            // Step 1.2.9: Return url.
            return Ok(Some(url));
        }
    }
    // Step 2: Return null.
    Ok(None)
}

impl ImportMapState {
    /// <https://html.spec.whatwg.org/multipage/webappapis.html#resolve-a-module-specifier>
    /// from step 4, given the referring script's (or the settings
    /// object's API) base URL; `record` is false for a global without an
    /// import map (a worker: its import map is empty and it keeps no
    /// resolved module set). `Err` is the TypeError's message.
    pub fn resolve(
        &mut self,
        specifier: &str,
        base_url: &url::Url,
        window: bool,
    ) -> Result<url::Url, String> {
        let empty = ImportMap::default();
        // Step 4-5: Let importMap be an empty import map; if
        // settingsObject's global object implements Window, then set
        // importMap to its import map.
        let import_map = if window { &self.import_map } else { &empty };
        // Step 6: Let serializedBaseURL be baseURL, serialized.
        let serialized_base_url = base_url.as_str();
        // Step 7: Let asURL be the result of resolving a URL-like module
        // specifier given specifier and baseURL.
        let as_url = resolve_url_like_module_specifier(specifier, base_url);
        // Step 8: Let normalizedSpecifier be the serialization of asURL, if
        // asURL is non-null; otherwise, specifier.
        let normalized_specifier = as_url
            .as_ref()
            .map_or_else(|| specifier.to_owned(), |u| u.as_str().to_owned());
        // Step 9: Let result be a URL-or-null, initially null.
        let mut result = None;
        // Step 10: For each scopePrefix → scopeImports of importMap's
        // scopes: if scopePrefix is serializedBaseURL, or if scopePrefix
        // ends with U+002F (/) and scopePrefix is a code unit prefix of
        // serializedBaseURL, then: let scopeImportsMatch be the result of
        // resolving an imports match given normalizedSpecifier, asURL, and
        // scopeImports; if it is not null, then set result to it, and
        // break.
        for (scope_prefix, scope_imports) in &import_map.scopes {
            if scope_prefix == serialized_base_url
                || (scope_prefix.ends_with('/')
                    && serialized_base_url.starts_with(scope_prefix.as_str()))
            {
                if let Some(found) =
                    resolve_imports_match(&normalized_specifier, as_url.as_ref(), scope_imports)?
                {
                    result = Some(found);
                    break;
                }
            }
        }
        // Step 11: If result is null, set result to the result of
        // resolving an imports match given normalizedSpecifier, asURL, and
        // importMap's imports.
        if result.is_none() {
            result =
                resolve_imports_match(&normalized_specifier, as_url.as_ref(), &import_map.imports)?;
        }
        // Step 12: If result is null, set it to asURL.
        let result = result.or_else(|| as_url.clone());
        // Step 13: If result is not null, then: add module to resolved
        // module set given settingsObject, serializedBaseURL,
        // normalizedSpecifier, and asURL; return result.
        if let Some(result) = result {
            if window {
                self.add_to_resolved_module_set(
                    serialized_base_url,
                    &normalized_specifier,
                    as_url.as_ref(),
                );
            }
            return Ok(result);
        }
        // Step 14: Throw a TypeError indicating that specifier was a bare
        // specifier, but was not remapped to anything by importMap.
        Err(format!(
            "the bare specifier {specifier:?} was not remapped to anything by an import map (relative specifiers start with \"/\", \"./\" or \"../\")"
        ))
    }

    /// <https://html.spec.whatwg.org/multipage/webappapis.html#add-module-to-resolved-module-set>
    /// (for a Window global).
    fn add_to_resolved_module_set(
        &mut self,
        serialized_base_url: &str,
        normalized_specifier: &str,
        as_url: Option<&url::Url>,
    ) {
        // Step 3: Let record be a new specifier resolution record, with
        // serialized base URL set to serializedBaseURL, specifier set to
        // normalizedSpecifier, and specifier as a URL set to asURL.
        let record = SpecifierResolutionRecord {
            serialized_base_url: serialized_base_url.to_owned(),
            specifier: normalized_specifier.to_owned(),
            as_url_is_null_or_special: as_url.is_none_or(|u| u.is_special()),
        };
        // Step 4: Append record to global's resolved module set.
        if self.seen.insert(record.clone()) {
            self.resolved_module_set.push(record);
        }
    }

    /// <https://html.spec.whatwg.org/multipage/webappapis.html#merge-existing-and-new-import-maps>,
    /// given the new import map; returns the warnings for the console.
    pub fn merge(&mut self, new_import_map: ImportMap) -> Vec<String> {
        let mut warnings = Vec::new();
        // Step 1: Let newImportMapScopes be a deep copy of newImportMap's
        // scopes.
        let mut new_scopes = new_import_map.scopes;
        // Step 2: Let oldImportMap be global's import map.
        // Step 3: Let newImportMapImports be a deep copy of newImportMap's
        // imports.
        let mut new_imports = new_import_map.imports;
        // Step 4: For each scopePrefix → scopeImports of newImportMapScopes:
        for (scope_prefix, scope_imports) in new_scopes.iter_mut() {
            // Step 4.1: For each record of global's resolved module set:
            for record in &self.resolved_module_set {
                // Step 4.1.1: If scopePrefix is record's serialized base
                // URL, or if scopePrefix ends with U+002F (/) and
                // scopePrefix is a code unit prefix of record's serialized
                // base URL, then: for each specifierKey → resolutionResult
                // of scopeImports: if specifierKey is record's specifier,
                // or if all of: specifierKey ends with U+002F (/);
                // specifierKey is a code unit prefix of record's
                // specifier; either record's specifier as a URL is null or
                // is special, then: the user agent may report a warning to
                // the console indicating the ignored rule; remove
                // scopeImports[specifierKey].
                if *scope_prefix == record.serialized_base_url
                    || (scope_prefix.ends_with('/')
                        && record
                            .serialized_base_url
                            .starts_with(scope_prefix.as_str()))
                {
                    scope_imports.retain(|(key, _)| {
                        let clashes = *key == record.specifier
                            || (key.ends_with('/')
                                && record.specifier.starts_with(key.as_str())
                                && record.as_url_is_null_or_special);
                        if clashes {
                            warnings.push(format!(
                                "import map rule for {key:?} in scope {scope_prefix:?} ignored: {:?} was already resolved",
                                record.specifier
                            ));
                        }
                        !clashes
                    });
                }
            }
            // Step 4.2: If scopePrefix exists in oldImportMap's scopes,
            // then set oldImportMap's scopes[scopePrefix] to the result of
            // merging module specifier maps, given scopeImports and
            // oldImportMap's scopes[scopePrefix].
            // Step 4.3: Otherwise, set oldImportMap's scopes[scopePrefix]
            // to scopeImports.
            match self
                .import_map
                .scopes
                .iter_mut()
                .find(|(prefix, _)| prefix == scope_prefix)
            {
                Some((_, old)) => {
                    *old = merge_specifier_maps(
                        std::mem::take(scope_imports),
                        std::mem::take(old),
                        &mut warnings,
                    );
                }
                None => self
                    .import_map
                    .scopes
                    .push((scope_prefix.clone(), std::mem::take(scope_imports))),
            }
        }
        self.import_map.scopes = sort_descending(std::mem::take(&mut self.import_map.scopes));
        // Step 5: For each url → integrity of newImportMap's integrity: if
        // url exists in oldImportMap's integrity, then warn and continue;
        // set oldImportMap's integrity[url] to integrity.
        for (url, integrity) in new_import_map.integrity {
            if self.import_map.integrity.iter().any(|(u, _)| *u == url) {
                warnings.push(format!(
                    "import map integrity for {url:?} ignored: already set"
                ));
                continue;
            }
            self.import_map.integrity.push((url, integrity));
        }
        // Step 6: For each record of global's resolved module set: for each
        // specifier → url of newImportMapImports: if specifier starts with
        // record's specifier, then: the user agent may report a warning to
        // the console indicating the ignored rule; remove
        // newImportMapImports[specifier].
        // (The condition as written drops longer, unrelated keys and keeps
        // the rules that would remap a resolved specifier; see
        // <https://github.com/whatwg/html/issues/11875>. Implemented as the
        // upstream tests expect and as step 4.1.1 does for scopes: a rule is
        // dropped if its specifier is record's specifier, or if it ends
        // with U+002F (/), is a code unit prefix of record's specifier, and
        // record's specifier as a URL is null or special. A bare key
        // without a trailing slash, e.g. "foo" after "foo/bar" resolved,
        // is kept.)
        for record in &self.resolved_module_set {
            new_imports.retain(|(specifier, _)| {
                let clashes = *specifier == record.specifier
                    || (specifier.ends_with('/')
                        && record.specifier.starts_with(specifier.as_str())
                        && record.as_url_is_null_or_special);
                if clashes {
                    warnings.push(format!(
                        "import map rule for {specifier:?} ignored: {:?} was already resolved",
                        record.specifier
                    ));
                }
                !clashes
            });
        }
        // Step 7: Set oldImportMap's imports to the result of merge module
        // specifier maps, given newImportMapImports and oldImportMap's
        // imports.
        self.import_map.imports = merge_specifier_maps(
            new_imports,
            std::mem::take(&mut self.import_map.imports),
            &mut warnings,
        );
        warnings
    }
}

/// <https://html.spec.whatwg.org/multipage/webappapis.html#merge-module-specifier-maps>
fn merge_specifier_maps(
    new_map: ModuleSpecifierMap,
    old_map: ModuleSpecifierMap,
    warnings: &mut Vec<String>,
) -> ModuleSpecifierMap {
    // Step 1: Let mergedMap be a deep copy of oldMap.
    let mut merged = old_map;
    // Step 2: For each specifier → url of newMap:
    for (specifier, url) in new_map {
        // Step 2.1: If specifier exists in oldMap, then: the user agent may
        // report a warning to the console indicating the ignored rule;
        // continue.
        if merged.iter().any(|(s, _)| *s == specifier) {
            warnings.push(format!(
                "import map rule for {specifier:?} ignored: an earlier import map defines it"
            ));
            continue;
        }
        // Step 2.2: Set mergedMap[specifier] to url.
        merged.push((specifier, url));
    }
    // Step 3: Return mergedMap (kept in descending order).
    sort_descending(merged)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> url::Url {
        url::Url::parse("https://example.com/app/index.html").unwrap()
    }

    fn state(json: &str) -> ImportMapState {
        let parsed = parse_import_map_string(json, &base()).unwrap();
        let mut state = ImportMapState::default();
        state.merge(parsed.map);
        state
    }

    #[test]
    fn bare_specifiers_and_packages() {
        let mut s = state(
            r#"{"imports": {"lodash": "/vendor/lodash.js", "lib/": "./lib/", "lib/special": "/special.js"}}"#,
        );
        let b = base();
        assert_eq!(
            s.resolve("lodash", &b, true).unwrap().as_str(),
            "https://example.com/vendor/lodash.js"
        );
        assert_eq!(
            s.resolve("lib/a/b.js", &b, true).unwrap().as_str(),
            "https://example.com/app/lib/a/b.js"
        );
        // The longer key wins (descending order).
        assert_eq!(
            s.resolve("lib/special", &b, true).unwrap().as_str(),
            "https://example.com/special.js"
        );
        assert!(s.resolve("unmapped", &b, true).is_err());
        assert_eq!(
            s.resolve("./x.js", &b, true).unwrap().as_str(),
            "https://example.com/app/x.js"
        );
        // A worker has no import map: bare specifiers fail.
        assert!(s.resolve("lodash", &b, false).is_err());
    }

    #[test]
    fn scopes_match_by_prefix_of_the_base_url() {
        let mut s = state(
            r#"{"imports": {"a": "/a1.js"}, "scopes": {"/app/": {"a": "/a2.js"}, "/other/": {"a": "/a3.js"}}}"#,
        );
        assert_eq!(s.resolve("a", &base(), true).unwrap().path(), "/a2.js");
        let other = url::Url::parse("https://example.com/elsewhere.js").unwrap();
        assert_eq!(s.resolve("a", &other, true).unwrap().path(), "/a1.js");
    }

    #[test]
    fn invalid_maps_are_errors_and_bad_entries_warnings() {
        let b = base();
        assert!(matches!(
            parse_import_map_string("{", &b),
            Err(ImportMapError::Syntax(_))
        ));
        assert!(matches!(
            parse_import_map_string("[]", &b),
            Err(ImportMapError::Type(_))
        ));
        assert!(matches!(
            parse_import_map_string(r#"{"imports": []}"#, &b),
            Err(ImportMapError::Type(_))
        ));
        assert!(matches!(
            parse_import_map_string(r#"{"scopes": {"/x/": 1}}"#, &b),
            Err(ImportMapError::Type(_))
        ));
        let parsed = parse_import_map_string(
            r#"{"imports": {"": "/a.js", "n": 1, "p/": "/no-slash", "bad": "not a url"}, "extra": 1}"#,
            &b,
        )
        .unwrap();
        assert_eq!(parsed.warnings.len(), 5, "{:?}", parsed.warnings);
        let mut s = ImportMapState::default();
        s.merge(parsed.map);
        // Null entries block resolution.
        assert!(s.resolve("n", &b, true).is_err());
        assert!(s.resolve("p/x", &b, true).is_err());
    }

    #[test]
    fn backtracking_above_a_package_prefix_is_blocked() {
        let mut s = state(r#"{"imports": {"pkg/": "/pkg/"}}"#);
        assert!(s.resolve("pkg/../secret.js", &base(), true).is_err());
    }

    #[test]
    fn merging_keeps_the_first_rule_and_resolved_specifiers() {
        let mut s = state(r#"{"imports": {"a": "/a1.js"}}"#);
        assert_eq!(s.resolve("a", &base(), true).unwrap().path(), "/a1.js");
        let second =
            parse_import_map_string(r#"{"imports": {"a": "/a2.js", "b": "/b.js"}}"#, &base())
                .unwrap();
        let warnings = s.merge(second.map);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert_eq!(s.resolve("a", &base(), true).unwrap().path(), "/a1.js");
        assert_eq!(s.resolve("b", &base(), true).unwrap().path(), "/b.js");
    }

    #[test]
    fn a_new_prefix_rule_never_remaps_a_resolved_specifier() {
        // A URL resolved before any rule matched it (the resolved module
        // set holds its normalized specifier)...
        let mut s = state(r#"{"imports": {}}"#);
        let resolved = s.resolve("./lib/a.js", &base(), true).unwrap();
        // ...is not remapped by a later map's prefix rules covering it
        // ("https:/" is a bare key that prefixes every https URL), while a
        // longer key it does not start with, a key without a trailing
        // slash, and other prefixes still apply (whatwg/html#11875: the
        // spec text compares the other way round).
        let later = parse_import_map_string(
            r#"{"imports": {
                "https:/": "/scheme/",
                "./lib/": "/elsewhere/",
                "./lib/a.js/extra": "/extra.js",
                "https://example.com/app/lib/a": "/a-without-slash.js",
                "./other/": "/other2/"
            }}"#,
            &base(),
        )
        .unwrap();
        let warnings = s.merge(later.map);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert_eq!(s.resolve("./lib/a.js", &base(), true).unwrap(), resolved);
        assert_eq!(
            s.resolve("./lib/a.js/extra", &base(), true).unwrap().path(),
            "/extra.js"
        );
        assert_eq!(
            s.resolve("./other/x.js", &base(), true).unwrap().path(),
            "/other2/x.js"
        );
        assert_eq!(
            s.resolve("./lib/a", &base(), true).unwrap().path(),
            "/a-without-slash.js"
        );
    }
}

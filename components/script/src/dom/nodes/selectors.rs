//! Selectors (<https://drafts.csswg.org/selectors-4/>) for the DOM's
//! selector APIs (`querySelector(All)`, `matches`, `closest`): parsing and
//! matching by Servo's `selectors` crate, over the shell's elements.
//!
//! Supported: every selector the crate parses (type, universal, `#id`,
//! `.class`, attribute selectors with all operators and the `i`/`s`
//! flags, the combinators ` `, `>`, `+`, `~`, `:not()`, `:is()`,
//! `:where()`, the tree-structural pseudo-classes `:first-child`,
//! `:nth-child(An+B [of S])`, `:only-of-type`, `:root`, `:empty`, ...,
//! and `:scope`), plus the pseudo-classes below. Not supported (a
//! `SyntaxError`, as an unknown selector is): `:has()`, pseudo-elements,
//! `:hover`/`:active` (no pointer), namespace prefixes.

use std::borrow::Borrow;
use std::fmt;

use cssparser::{CowRcStr, ParseError, Parser as CssParser, ParserInput, SourceLocation, ToCss};
use precomputed_hash::PrecomputedHash;
use selectors::attr::{AttrSelectorOperation, CaseSensitivity, NamespaceConstraint};
use selectors::context::{
    MatchingContext, MatchingForInvalidation, MatchingMode, NeedsSelectorFlags, QuirksMode,
    SelectorCaches,
};
use selectors::matching::{matches_selector_list, ElementSelectorFlags};
use selectors::parser::{ParseRelative, SelectorParseErrorKind};
use selectors::{OpaqueElement, SelectorList};

use crate::dom::bindings::error::{DomExceptionName, Error, Fallible};
use crate::dom::bindings::root::DomRoot;
use crate::dom::nodes::element::{Element, HTML_NAMESPACE};
use crate::dom::nodes::node::NodeKind;

/// A string in a selector: identifiers, local names, namespace URLs,
/// attribute values.
#[derive(Clone, Debug, Default, Eq, Hash, PartialEq)]
pub struct CssString(pub String);

impl<'a> From<&'a str> for CssString {
    fn from(s: &'a str) -> CssString {
        CssString(s.to_owned())
    }
}

impl AsRef<str> for CssString {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for CssString {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl ToCss for CssString {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        cssparser::serialize_identifier(&self.0, dest)
    }
}

impl PrecomputedHash for CssString {
    fn precomputed_hash(&self) -> u32 {
        // FNV-1a: only used for the crate's Bloom filter and hash maps.
        let mut hash: u32 = 0x811c_9dc5;
        for byte in self.0.bytes() {
            hash ^= u32::from(byte);
            hash = hash.wrapping_mul(0x0100_0193);
        }
        hash
    }
}

/// The non-tree-structural pseudo-classes the shell matches.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum PseudoClass {
    /// <https://html.spec.whatwg.org/multipage/semantics-other.html#selector-checked>
    Checked,
    /// <https://html.spec.whatwg.org/multipage/semantics-other.html#selector-disabled>
    Disabled,
    /// <https://html.spec.whatwg.org/multipage/semantics-other.html#selector-enabled>
    Enabled,
    /// <https://html.spec.whatwg.org/multipage/semantics-other.html#selector-link>
    Link,
    /// <https://html.spec.whatwg.org/multipage/semantics-other.html#selector-any-link>
    AnyLink,
    /// <https://html.spec.whatwg.org/multipage/semantics-other.html#selector-visited>
    /// (never: there is no history of visited links).
    Visited,
    /// <https://html.spec.whatwg.org/multipage/semantics-other.html#selector-focus>
    Focus,
    /// <https://drafts.csswg.org/selectors-4/#the-focus-within-pseudo>
    FocusWithin,
    /// <https://html.spec.whatwg.org/multipage/semantics-other.html#selector-required>
    Required,
    /// <https://html.spec.whatwg.org/multipage/semantics-other.html#selector-optional>
    Optional,
    /// <https://html.spec.whatwg.org/multipage/semantics-other.html#selector-placeholder-shown>
    PlaceholderShown,
    /// <https://html.spec.whatwg.org/multipage/semantics-other.html#selector-defined>
    /// (every element: there are no custom elements).
    Defined,
    /// <https://drafts.csswg.org/selectors-4/#the-hover-pseudo> (never: no
    /// pointer).
    Hover,
    /// <https://drafts.csswg.org/selectors-4/#the-active-pseudo> (never).
    Active,
}

const PSEUDO_CLASSES: &[(&str, PseudoClass)] = &[
    ("checked", PseudoClass::Checked),
    ("disabled", PseudoClass::Disabled),
    ("enabled", PseudoClass::Enabled),
    ("link", PseudoClass::Link),
    ("any-link", PseudoClass::AnyLink),
    ("visited", PseudoClass::Visited),
    ("focus", PseudoClass::Focus),
    ("focus-within", PseudoClass::FocusWithin),
    ("required", PseudoClass::Required),
    ("optional", PseudoClass::Optional),
    ("placeholder-shown", PseudoClass::PlaceholderShown),
    ("defined", PseudoClass::Defined),
    ("hover", PseudoClass::Hover),
    ("active", PseudoClass::Active),
];

impl ToCss for PseudoClass {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        let name = PSEUDO_CLASSES
            .iter()
            .find(|(_, pc)| pc == self)
            .map_or("", |(n, _)| n);
        dest.write_char(':')?;
        dest.write_str(name)
    }
}

impl selectors::parser::NonTSPseudoClass for PseudoClass {
    type Impl = Impl;

    fn is_active_or_hover(&self) -> bool {
        matches!(self, PseudoClass::Hover | PseudoClass::Active)
    }

    fn is_user_action_state(&self) -> bool {
        matches!(self, PseudoClass::Focus | PseudoClass::FocusWithin)
    }
}

/// The tree-abiding and highlight pseudo-elements
/// (<https://drafts.csswg.org/css-pseudo-4/>): parsed, never matched by the
/// DOM's selector APIs (which return elements).
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct PseudoElement(&'static str);

const PSEUDO_ELEMENTS: &[&str] = &[
    "before",
    "after",
    "marker",
    "placeholder",
    "selection",
    "first-line",
    "first-letter",
    "backdrop",
    "file-selector-button",
];

impl ToCss for PseudoElement {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        dest.write_str("::")?;
        dest.write_str(self.0)
    }
}

impl selectors::parser::PseudoElement for PseudoElement {
    type Impl = Impl;
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Impl;

impl selectors::SelectorImpl for Impl {
    type ExtraMatchingData<'a> = std::marker::PhantomData<&'a ()>;
    type AttrValue = CssString;
    type Identifier = CssString;
    type LocalName = CssString;
    type NamespaceUrl = CssString;
    type NamespacePrefix = CssString;
    type BorrowedNamespaceUrl = str;
    type BorrowedLocalName = str;
    type NonTSPseudoClass = PseudoClass;
    type PseudoElement = PseudoElement;
}

struct SelectorParser;

impl<'i> selectors::Parser<'i> for SelectorParser {
    type Impl = Impl;
    type Error = SelectorParseErrorKind<'i>;

    fn parse_is_and_where(&self) -> bool {
        true
    }

    fn parse_nth_child_of(&self) -> bool {
        true
    }

    fn parse_has(&self) -> bool {
        true
    }

    fn parse_pseudo_element(
        &self,
        location: SourceLocation,
        name: CowRcStr<'i>,
    ) -> Result<PseudoElement, ParseError<'i, SelectorParseErrorKind<'i>>> {
        PSEUDO_ELEMENTS
            .iter()
            .find(|n| n.eq_ignore_ascii_case(&name))
            .map(|n| PseudoElement(n))
            .ok_or_else(|| {
                location.new_custom_error(SelectorParseErrorKind::UnsupportedPseudoClassOrElement(
                    name,
                ))
            })
    }

    fn parse_non_ts_pseudo_class(
        &self,
        location: SourceLocation,
        name: CowRcStr<'i>,
    ) -> Result<PseudoClass, ParseError<'i, SelectorParseErrorKind<'i>>> {
        PSEUDO_CLASSES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(&name))
            .map(|(_, pc)| pc.clone())
            .ok_or_else(|| {
                location.new_custom_error(SelectorParseErrorKind::UnsupportedPseudoClassOrElement(
                    name,
                ))
            })
    }
}

/// <https://drafts.csswg.org/selectors-4/#parse-a-selector>: a selector
/// list, or a "SyntaxError" DOMException (step 2 of "scope-match a
/// selectors string" and of `matches`/`closest`).
pub fn parse_selector(selectors: &str) -> Fallible<SelectorList<Impl>> {
    let mut input = ParserInput::new(selectors);
    let mut parser = CssParser::new(&mut input);
    SelectorList::parse(&SelectorParser, &mut parser, ParseRelative::No).map_err(|_| {
        Error::dom_with_message(
            DomExceptionName::SyntaxError,
            format!("'{selectors}' is not a valid selector"),
        )
    })
}

/// <https://drafts.csswg.org/selectors-4/#match-a-selector-against-an-element>,
/// with `scope` the `:scope` element.
pub fn matches(list: &SelectorList<Impl>, element: &Element, scope: Option<&Element>) -> bool {
    let mut caches = SelectorCaches::default();
    let mut context = MatchingContext::new(
        MatchingMode::Normal,
        None,
        &mut caches,
        QuirksMode::NoQuirks,
        NeedsSelectorFlags::No,
        MatchingForInvalidation::No,
    );
    context.scope_element = scope.map(OpaqueElement::new);
    matches_selector_list(
        list,
        &SelectorElement(DomRoot::from_ref(element)),
        &mut context,
    )
}

/// An element as the `selectors` crate sees it.
#[derive(Clone)]
struct SelectorElement(DomRoot<Element>);

impl fmt::Debug for SelectorElement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{}>", self.0.local_name())
    }
}

fn element_of(node: DomRoot<crate::dom::nodes::node::Node>) -> Option<SelectorElement> {
    node.downcast::<Element>().map(SelectorElement)
}

impl selectors::Element for SelectorElement {
    type Impl = Impl;

    fn opaque(&self) -> OpaqueElement {
        OpaqueElement::new::<Element>(&self.0)
    }

    fn parent_element(&self) -> Option<Self> {
        self.0.upcast_node().parent().and_then(element_of)
    }

    fn parent_node_is_shadow_root(&self) -> bool {
        false
    }

    fn containing_shadow_host(&self) -> Option<Self> {
        None
    }

    fn is_pseudo_element(&self) -> bool {
        false
    }

    fn prev_sibling_element(&self) -> Option<Self> {
        let node = self.0.upcast_node();
        let parent = node.parent()?;
        let mut current = parent.child_before(node);
        while let Some(sibling) = current {
            if let Some(element) = sibling.downcast::<Element>() {
                return Some(SelectorElement(element));
            }
            current = parent.child_before(&sibling);
        }
        None
    }

    fn next_sibling_element(&self) -> Option<Self> {
        let mut current = self.0.upcast_node().next_sibling();
        while let Some(sibling) = current {
            if let Some(element) = sibling.downcast::<Element>() {
                return Some(SelectorElement(element));
            }
            current = sibling.next_sibling();
        }
        None
    }

    fn first_element_child(&self) -> Option<Self> {
        self.0
            .upcast_node()
            .children()
            .into_iter()
            .find_map(element_of)
    }

    fn is_html_element_in_html_document(&self) -> bool {
        // Every document of the shell is an HTML document.
        self.0.namespace() == Some(HTML_NAMESPACE)
    }

    fn has_local_name(&self, local_name: &str) -> bool {
        self.0.local_name() == local_name
    }

    fn has_namespace(&self, ns: &str) -> bool {
        self.0.namespace().unwrap_or_default() == ns
    }

    fn is_same_type(&self, other: &Self) -> bool {
        self.0.local_name() == other.0.local_name() && self.0.namespace() == other.0.namespace()
    }

    fn attr_matches(
        &self,
        ns: &NamespaceConstraint<&CssString>,
        local_name: &CssString,
        operation: &AttrSelectorOperation<&CssString>,
    ) -> bool {
        // Attributes have no namespace here: a namespace constraint other
        // than "any" or "none" matches nothing.
        if let NamespaceConstraint::Specific(ns) = ns {
            if !ns.0.is_empty() {
                return false;
            }
        }
        self.0
            .get_attribute(&local_name.0)
            .is_some_and(|value| operation.eval_str(&value))
    }

    fn match_non_ts_pseudo_class(
        &self,
        pc: &PseudoClass,
        _context: &mut MatchingContext<Impl>,
    ) -> bool {
        let element = &*self.0;
        match pc {
            PseudoClass::Checked => crate::dom::html::forms::matches_checked(element),
            PseudoClass::Disabled => crate::dom::html::forms::is_disabled(element),
            PseudoClass::Enabled => {
                crate::dom::html::forms::is_form_control(element)
                    && !crate::dom::html::forms::is_disabled(element)
            }
            PseudoClass::Link | PseudoClass::AnyLink => self.is_link(),
            PseudoClass::Visited => false,
            PseudoClass::Focus => is_focused(element),
            PseudoClass::FocusWithin => {
                let Some(document) = element.upcast_node().owner_doc() else {
                    return false;
                };
                document.focused_element().is_some_and(|f| {
                    element
                        .upcast_node()
                        .is_inclusive_ancestor_of(f.upcast_node())
                })
            }
            PseudoClass::Required => {
                is_input_like(element) && element.get_attribute("required").is_some()
            }
            PseudoClass::Optional => {
                is_input_like(element) && element.get_attribute("required").is_none()
            }
            PseudoClass::PlaceholderShown => crate::dom::html::forms::placeholder_shown(element),
            PseudoClass::Defined => true,
            PseudoClass::Hover | PseudoClass::Active => false,
        }
    }

    fn match_pseudo_element(
        &self,
        _pe: &PseudoElement,
        _context: &mut MatchingContext<Impl>,
    ) -> bool {
        false
    }

    fn apply_selector_flags(&self, _flags: ElementSelectorFlags) {}

    fn is_link(&self) -> bool {
        self.0.namespace() == Some(HTML_NAMESPACE)
            && matches!(self.0.local_name(), "a" | "area")
            && self.0.get_attribute("href").is_some()
    }

    fn is_html_slot_element(&self) -> bool {
        false
    }

    fn has_id(&self, id: &CssString, case_sensitivity: CaseSensitivity) -> bool {
        self.0
            .get_attribute("id")
            .is_some_and(|v| case_sensitivity.eq(v.as_bytes(), id.0.as_bytes()))
    }

    fn has_class(&self, name: &CssString, case_sensitivity: CaseSensitivity) -> bool {
        self.0.get_attribute("class").is_some_and(|v| {
            v.split_ascii_whitespace()
                .any(|c| case_sensitivity.eq(c.as_bytes(), name.0.as_bytes()))
        })
    }

    fn has_custom_state(&self, _name: &CssString) -> bool {
        false
    }

    fn imported_part(&self, _name: &CssString) -> Option<CssString> {
        None
    }

    fn is_part(&self, _name: &CssString) -> bool {
        false
    }

    /// <https://drafts.csswg.org/selectors-4/#the-empty-pseudo>: no
    /// element children and no text (comments are fine).
    fn is_empty(&self) -> bool {
        self.0
            .upcast_node()
            .children()
            .iter()
            .all(|c| match c.kind() {
                NodeKind::Element => false,
                NodeKind::Text => c.descendant_text_content().is_empty(),
                _ => true,
            })
    }

    fn is_root(&self) -> bool {
        self.0
            .upcast_node()
            .parent()
            .is_some_and(|p| p.kind() == NodeKind::Document)
    }

    fn add_element_unique_hashes(&self, _filter: &mut selectors::bloom::BloomFilter) -> bool {
        false
    }
}

fn is_focused(element: &Element) -> bool {
    element
        .upcast_node()
        .owner_doc()
        .and_then(|d| d.focused_element())
        .is_some_and(|f| std::ptr::eq::<Element>(&*f, element))
}

fn is_input_like(element: &Element) -> bool {
    element.namespace() == Some(HTML_NAMESPACE)
        && matches!(element.local_name(), "input" | "select" | "textarea")
}

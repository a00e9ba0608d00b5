//! `CSSStyleDeclaration` (<https://drafts.csswg.org/cssom/#the-cssstyledeclaration-interface>)
//! for an element's `style` attribute
//! (<https://drafts.csswg.org/cssom/#dom-elementcssinlinestyle-style>): a
//! CSS declaration block kept in sync with the attribute.
//!
//! The shell has no style engine: a declaration's value is kept as the
//! trimmed source text of its component values (not parsed against the
//! property's grammar nor normalized: Chromium reads `color: RED` back as
//! `red`, the shell as `RED`), any property name is accepted, and
//! shorthands are not expanded into their longhands. Nothing cascades or
//! computes.

use std::cell::{Cell, RefCell};

use cssparser::{Delimiter, ParseError, Parser, ParserInput, Token};
use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::CSSStyleDeclarationBinding::CSSStyleDeclarationMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::{DomRoot, MutNullableDom};
use crate::dom::nodes::element::Element;

/// A CSS declaration (<https://drafts.csswg.org/cssom/#css-declaration>).
#[derive(Clone, Debug, PartialEq)]
pub struct Declaration {
    /// The property name (ASCII lowercase unless a custom property).
    pub name: String,
    pub value: String,
    pub important: bool,
}

#[derive(JSTraceable)]
pub struct CSSStyleDeclaration {
    pub(crate) reflector: Reflector,
    /// <https://drafts.csswg.org/cssom/#cssstyledeclaration-owner-node>
    owner_node: MutNullableDom<Element>,
    /// <https://drafts.csswg.org/cssom/#cssstyledeclaration-declarations>
    #[no_trace]
    declarations: RefCell<Vec<Declaration>>,
    /// <https://drafts.csswg.org/cssom/#cssstyledeclaration-updating-flag>
    updating: Cell<bool>,
}

/// Whether `name` is a custom property name (`--*`).
fn is_custom_property(name: &str) -> bool {
    name.starts_with("--")
}

/// <https://drafts.csswg.org/css-syntax/#parse-a-list-of-declarations>
/// (the declarations of a style attribute, <https://drafts.csswg.org/css-style-attr/#syntax>):
/// each `name: value [!important]` up to a `;`, invalid ones dropped, a
/// later declaration of a name replacing an earlier one.
pub fn parse_declarations(text: &str) -> Vec<Declaration> {
    let mut input = ParserInput::new(text);
    let mut parser = Parser::new(&mut input);
    let mut declarations: Vec<Declaration> = Vec::new();
    while !parser.is_exhausted() {
        let result = parser.parse_until_after(Delimiter::Semicolon, parse_one_declaration);
        if let Ok(Some(declaration)) = result {
            declarations.retain(|d| d.name != declaration.name);
            declarations.push(declaration);
        }
    }
    declarations
}

/// One declaration (<https://drafts.csswg.org/css-syntax/#consume-declaration>);
/// None for an empty one.
fn parse_one_declaration<'i>(
    parser: &mut Parser<'i, '_>,
) -> Result<Option<Declaration>, ParseError<'i, ()>> {
    if parser.is_exhausted() {
        return Ok(None);
    }
    // Step 1-3: the name is an ident; then a colon.
    let name = parser.expect_ident()?.to_string();
    parser.expect_colon()?;
    let (value, important) = parse_value(parser)?;
    let name = if is_custom_property(&name) {
        name
    } else {
        name.to_ascii_lowercase()
    };
    // A declaration with no value is invalid (except for custom
    // properties, whose value may be empty).
    if value.is_empty() && !is_custom_property(&name) {
        return Err(parser.new_custom_error(()));
    }
    Ok(Some(Declaration {
        name,
        value,
        important,
    }))
}

/// A declaration's value: the component values up to the end of the
/// input, with a trailing `!important` removed (Step 5 of "consume a
/// declaration").
fn parse_value<'i>(parser: &mut Parser<'i, '_>) -> Result<(String, bool), ParseError<'i, ()>> {
    let start = parser.position();
    let mut end = start;
    let mut important = false;
    loop {
        let before = parser.position();
        match parser.next_including_whitespace() {
            Ok(Token::Delim('!')) => {
                // `!important` must end the value.
                parser.skip_whitespace();
                parser.expect_ident_matching("important")?;
                parser.skip_whitespace();
                parser.expect_exhausted()?;
                important = true;
                end = before;
                break;
            }
            Ok(Token::BadString(_)) | Ok(Token::BadUrl(_)) => {
                return Err(parser.new_custom_error(()));
            }
            Ok(Token::CloseParenthesis)
            | Ok(Token::CloseSquareBracket)
            | Ok(Token::CloseCurlyBracket)
            | Ok(Token::Semicolon) => {
                return Err(parser.new_custom_error(()));
            }
            Ok(_) => end = parser.position(),
            Err(_) => break,
        }
    }
    Ok((parser.slice(start..end).trim().to_owned(), important))
}

/// <https://drafts.csswg.org/cssom/#serialize-a-css-declaration-block>
/// (each declaration as `name: value;`, ` !important` before the `;` when
/// set, joined by spaces; no shorthand folding).
pub fn serialize_declarations(declarations: &[Declaration]) -> String {
    declarations
        .iter()
        .map(|d| {
            format!(
                "{}: {}{};",
                d.name,
                d.value,
                if d.important { " !important" } else { "" }
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl CSSStyleDeclaration {
    /// The declaration block of `element`'s `style` attribute, its
    /// declarations parsed from the attribute's current value.
    pub fn new_for_element(cx: &mut JSContext, element: &Element) -> DomRoot<CSSStyleDeclaration> {
        let declarations = element
            .get_attribute("style")
            .map(|v| parse_declarations(&v))
            .unwrap_or_default();
        reflect_dom_object(
            cx,
            element.upcast_node().global(),
            Box::new(CSSStyleDeclaration {
                reflector: Reflector::new(),
                owner_node: MutNullableDom::new(Some(element)),
                declarations: RefCell::new(declarations),
                updating: Cell::new(false),
            }),
            None,
        )
    }

    /// The attribute change steps of `style`
    /// (<https://drafts.csswg.org/cssom/#ref-for-cssstyledeclaration-updating-flag>):
    /// unless the change comes from this block ("update style attribute"),
    /// the declarations become the attribute's parsed value (none when
    /// the attribute is removed).
    pub fn style_attribute_changed(&self, value: Option<&str>) {
        if self.updating.get() {
            return;
        }
        *self.declarations.borrow_mut() = value.map(parse_declarations).unwrap_or_default();
    }

    /// <https://drafts.csswg.org/cssom/#update-style-attribute-for>
    fn update_style_attribute(&self) {
        let Some(owner) = self.owner_node.get() else {
            return;
        };
        // Step 1: Assert: declaration block's computed flag is unset.
        // Step 2: Let owner node be declaration block's owner node.
        // Step 3: If owner node is null, then return.
        // Step 4: Set declaration block's updating flag.
        self.updating.set(true);
        // Step 5: Set an attribute value for owner node using "style" and
        // the result of serializing declaration block.
        let text = serialize_declarations(&self.declarations.borrow());
        owner.set_attribute_value("style", &text);
        // Step 6: Unset declaration block's updating flag.
        self.updating.set(false);
    }

    /// The property name as given to the methods: ASCII lowercase unless
    /// it is a custom property.
    fn normalize(property: &str) -> String {
        if is_custom_property(property) {
            property.to_owned()
        } else {
            property.to_ascii_lowercase()
        }
    }

    fn get_value(&self, property: &str) -> String {
        let property = Self::normalize(property);
        self.declarations
            .borrow()
            .iter()
            .find(|d| d.name == property)
            .map(|d| d.value.clone())
            .unwrap_or_default()
    }

    /// <https://drafts.csswg.org/cssom/#dom-cssstyledeclaration-setproperty>
    fn set_property(&self, property: &str, value: &str, priority: &str) {
        // Step 1: (the computed flag is never set here.)
        // Step 2: If property is not a custom property, let property be it
        // in ASCII lowercase.
        // Step 3: If property is not a case-sensitive match for a
        // supported CSS property, then return (every name is accepted: no
        // style engine).
        let property = Self::normalize(property);
        // Step 4: If value is the empty string, invoke removeProperty()
        // with property as argument and return.
        if value.is_empty() {
            self.remove_property(&property);
            return;
        }
        // Step 5: If priority is not the empty string and is not an ASCII
        // case-insensitive match for the string "important", then return.
        if !priority.is_empty() && !priority.eq_ignore_ascii_case("important") {
            return;
        }
        // Step 6: Let component value list be the result of parsing value
        // for property property. Step 7: If it is null, then return.
        let mut input = ParserInput::new(value);
        let mut parser = Parser::new(&mut input);
        let parsed = parser.parse_entirely(|p| {
            let (v, important) = parse_value(p)?;
            if important {
                return Err(p.new_custom_error::<(), ()>(()));
            }
            Ok(v)
        });
        let Ok(value) = parsed else {
            return;
        };
        if value.is_empty() {
            return;
        }
        // Step 8: Let updated be false.
        // Step 9-10: set the CSS declaration property with value and
        // the important flag.
        let important = !priority.is_empty();
        {
            let mut declarations = self.declarations.borrow_mut();
            match declarations.iter_mut().find(|d| d.name == property) {
                Some(d) => {
                    d.value = value;
                    d.important = important;
                }
                None => declarations.push(Declaration {
                    name: property,
                    value,
                    important,
                }),
            }
        }
        // Step 11: If updated is true, update style attribute for the CSS
        // declaration block.
        self.update_style_attribute();
    }

    /// <https://drafts.csswg.org/cssom/#dom-cssstyledeclaration-removeproperty>
    fn remove_property(&self, property: &str) -> String {
        // Step 1: (computed flag never set.)
        // Step 2: If property is not a custom property, lowercase it.
        let property = Self::normalize(property);
        // Step 3: Let value be the return value of invoking
        // getPropertyValue() with property as argument.
        let value = self.get_value(&property);
        // Step 4: Let removed be false.
        // Step 5-6: remove the declaration whose property name is property
        // (shorthands are not expanded).
        let removed = {
            let mut declarations = self.declarations.borrow_mut();
            let before = declarations.len();
            declarations.retain(|d| d.name != property);
            declarations.len() != before
        };
        // Step 7: If removed is true, update style attribute for the CSS
        // declaration block.
        if removed {
            self.update_style_attribute();
        }
        // Step 8: Return value.
        value
    }
}

/// The getter and setter of camel-cased attributes
/// (<https://drafts.csswg.org/cssom/#dom-cssstyledeclaration-camel-cased-attribute>):
/// the getter returns getPropertyValue(property), the setter invokes
/// setProperty(property, value).
macro_rules! camel_cased_attributes {
    ($(($getter:ident, $setter:ident, $property:literal),)*) => {
        $(
            fn $getter(&self, _cx: &mut JSContext) -> DOMString {
                self.get_value($property)
            }

            fn $setter(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
                self.set_property($property, &value, "");
                Ok(())
            }
        )*
    };
}

impl CSSStyleDeclarationMethods for CSSStyleDeclaration {
    /// <https://drafts.csswg.org/cssom/#dom-cssstyledeclaration-csstext>
    fn CssText(&self, _cx: &mut JSContext) -> DOMString {
        // Step 1: If the computed flag is set, return the empty string.
        // Step 2: Return the result of serializing the declarations.
        serialize_declarations(&self.declarations.borrow())
    }

    fn SetCssText(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        // Step 1: If the readonly flag is set, throw (never set here).
        // Step 2: Empty the declarations.
        // Step 3: Parse the given value and, if the return value is not the
        // empty list, insert the items in the list into the declarations,
        // in specified order.
        *self.declarations.borrow_mut() = parse_declarations(&value);
        // Step 4: Update style attribute for the CSS declaration block.
        self.update_style_attribute();
        Ok(())
    }

    /// <https://drafts.csswg.org/cssom/#dom-cssstyledeclaration-length>
    fn Length(&self, _cx: &mut JSContext) -> u32 {
        u32::try_from(self.declarations.borrow().len()).unwrap_or(u32::MAX)
    }

    /// <https://drafts.csswg.org/cssom/#dom-cssstyledeclaration-item>
    fn Item(&self, _cx: &mut JSContext, index: u32) -> Fallible<DOMString> {
        // Step 1: If index is greater than or equal to the number of CSS
        // declarations, return the empty string.
        // Step 2: Let declaration be the indexth CSS declaration.
        // Step 3: Return declaration's property name.
        Ok(self
            .declarations
            .borrow()
            .get(index as usize)
            .map(|d| d.name.clone())
            .unwrap_or_default())
    }

    /// The supported property indices: the declarations' indices.
    fn IndexedGetter(&self, _cx: &mut JSContext, index: u32) -> Option<DOMString> {
        self.declarations
            .borrow()
            .get(index as usize)
            .map(|d| d.name.clone())
    }

    fn SupportedIndexCount(&self, cx: &mut JSContext) -> u32 {
        self.Length(cx)
    }

    /// <https://drafts.csswg.org/cssom/#dom-cssstyledeclaration-getpropertyvalue>
    fn GetPropertyValue(&self, _cx: &mut JSContext, property: DOMString) -> Fallible<DOMString> {
        // Step 1: If property is not a custom property, lowercase it.
        // Step 2: (shorthands: not expanded.)
        // Step 3: If property is a case-sensitive match for a property name
        // of a CSS declaration in the declarations, then return the result
        // of invoking serialize a CSS value of that declaration.
        // Step 4: Return the empty string.
        Ok(self.get_value(&property))
    }

    /// <https://drafts.csswg.org/cssom/#dom-cssstyledeclaration-getpropertypriority>
    fn GetPropertyPriority(&self, _cx: &mut JSContext, property: DOMString) -> Fallible<DOMString> {
        // Step 1: If property is not a custom property, lowercase it.
        let property = Self::normalize(&property);
        // Step 3: If property is a case-sensitive match for a property name
        // of a CSS declaration in the declarations that has the important
        // flag set, return the string "important".
        // Step 4: Return the empty string.
        let important = self
            .declarations
            .borrow()
            .iter()
            .any(|d| d.name == property && d.important);
        Ok(if important { "important" } else { "" }.into())
    }

    /// <https://drafts.csswg.org/cssom/#dom-cssstyledeclaration-setproperty>
    fn SetProperty(
        &self,
        _cx: &mut JSContext,
        property: DOMString,
        value: DOMString,
        priority: DOMString,
    ) -> Fallible<()> {
        self.set_property(&property, &value, &priority);
        Ok(())
    }

    /// <https://drafts.csswg.org/cssom/#dom-cssstyledeclaration-removeproperty>
    fn RemoveProperty(&self, _cx: &mut JSContext, property: DOMString) -> Fallible<DOMString> {
        Ok(self.remove_property(&property))
    }

    /// <https://drafts.csswg.org/cssom/#dom-cssstyledeclaration-cssfloat>:
    /// getPropertyValue("float") and setProperty("float", value).
    fn CssFloat(&self, _cx: &mut JSContext) -> DOMString {
        self.get_value("float")
    }

    fn SetCssFloat(&self, _cx: &mut JSContext, value: DOMString) -> Fallible<()> {
        self.set_property("float", &value, "");
        Ok(())
    }

    camel_cased_attributes! {
        (AlignContent, SetAlignContent, "align-content"),
        (AlignItems, SetAlignItems, "align-items"),
        (AlignSelf, SetAlignSelf, "align-self"),
        (Animation, SetAnimation, "animation"),
        (Background, SetBackground, "background"),
        (BackgroundColor, SetBackgroundColor, "background-color"),
        (BackgroundImage, SetBackgroundImage, "background-image"),
        (BackgroundPosition, SetBackgroundPosition, "background-position"),
        (BackgroundRepeat, SetBackgroundRepeat, "background-repeat"),
        (BackgroundSize, SetBackgroundSize, "background-size"),
        (Border, SetBorder, "border"),
        (BorderBottom, SetBorderBottom, "border-bottom"),
        (BorderCollapse, SetBorderCollapse, "border-collapse"),
        (BorderColor, SetBorderColor, "border-color"),
        (BorderLeft, SetBorderLeft, "border-left"),
        (BorderRadius, SetBorderRadius, "border-radius"),
        (BorderRight, SetBorderRight, "border-right"),
        (BorderStyle, SetBorderStyle, "border-style"),
        (BorderTop, SetBorderTop, "border-top"),
        (BorderWidth, SetBorderWidth, "border-width"),
        (Bottom, SetBottom, "bottom"),
        (BoxShadow, SetBoxShadow, "box-shadow"),
        (BoxSizing, SetBoxSizing, "box-sizing"),
        (Clear, SetClear, "clear"),
        (Color, SetColor, "color"),
        (Content, SetContent, "content"),
        (Cursor, SetCursor, "cursor"),
        (Display, SetDisplay, "display"),
        (Fill, SetFill, "fill"),
        (Flex, SetFlex, "flex"),
        (FlexBasis, SetFlexBasis, "flex-basis"),
        (FlexDirection, SetFlexDirection, "flex-direction"),
        (FlexFlow, SetFlexFlow, "flex-flow"),
        (FlexGrow, SetFlexGrow, "flex-grow"),
        (FlexShrink, SetFlexShrink, "flex-shrink"),
        (FlexWrap, SetFlexWrap, "flex-wrap"),
        (Font, SetFont, "font"),
        (FontFamily, SetFontFamily, "font-family"),
        (FontSize, SetFontSize, "font-size"),
        (FontStyle, SetFontStyle, "font-style"),
        (FontWeight, SetFontWeight, "font-weight"),
        (Gap, SetGap, "gap"),
        (GridTemplateColumns, SetGridTemplateColumns, "grid-template-columns"),
        (GridTemplateRows, SetGridTemplateRows, "grid-template-rows"),
        (Height, SetHeight, "height"),
        (JustifyContent, SetJustifyContent, "justify-content"),
        (Left, SetLeft, "left"),
        (LetterSpacing, SetLetterSpacing, "letter-spacing"),
        (LineHeight, SetLineHeight, "line-height"),
        (ListStyle, SetListStyle, "list-style"),
        (Margin, SetMargin, "margin"),
        (MarginBottom, SetMarginBottom, "margin-bottom"),
        (MarginLeft, SetMarginLeft, "margin-left"),
        (MarginRight, SetMarginRight, "margin-right"),
        (MarginTop, SetMarginTop, "margin-top"),
        (MaxHeight, SetMaxHeight, "max-height"),
        (MaxWidth, SetMaxWidth, "max-width"),
        (MinHeight, SetMinHeight, "min-height"),
        (MinWidth, SetMinWidth, "min-width"),
        (Opacity, SetOpacity, "opacity"),
        (Outline, SetOutline, "outline"),
        (Overflow, SetOverflow, "overflow"),
        (OverflowX, SetOverflowX, "overflow-x"),
        (OverflowY, SetOverflowY, "overflow-y"),
        (Padding, SetPadding, "padding"),
        (PaddingBottom, SetPaddingBottom, "padding-bottom"),
        (PaddingLeft, SetPaddingLeft, "padding-left"),
        (PaddingRight, SetPaddingRight, "padding-right"),
        (PaddingTop, SetPaddingTop, "padding-top"),
        (PointerEvents, SetPointerEvents, "pointer-events"),
        (Position, SetPosition, "position"),
        (Right, SetRight, "right"),
        (Stroke, SetStroke, "stroke"),
        (TextAlign, SetTextAlign, "text-align"),
        (TextDecoration, SetTextDecoration, "text-decoration"),
        (TextOverflow, SetTextOverflow, "text-overflow"),
        (TextTransform, SetTextTransform, "text-transform"),
        (Top, SetTop, "top"),
        (Transform, SetTransform, "transform"),
        (TransformOrigin, SetTransformOrigin, "transform-origin"),
        (Transition, SetTransition, "transition"),
        (UserSelect, SetUserSelect, "user-select"),
        (VerticalAlign, SetVerticalAlign, "vertical-align"),
        (Visibility, SetVisibility, "visibility"),
        (WhiteSpace, SetWhiteSpace, "white-space"),
        (Width, SetWidth, "width"),
        (WordBreak, SetWordBreak, "word-break"),
        (WordWrap, SetWordWrap, "word-wrap"),
        (ZIndex, SetZIndex, "z-index"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_parse_and_serialize() {
        let d = parse_declarations("color: red; Margin-Top:1px !important;;bad; --x: A b;");
        assert_eq!(
            serialize_declarations(&d),
            "color: red; margin-top: 1px !important; --x: A b;"
        );
        // A later declaration of a property replaces the earlier one.
        let d = parse_declarations("color: red; color: blue");
        assert_eq!(serialize_declarations(&d), "color: blue;");
        // Broken input: unbalanced blocks and missing values are dropped.
        let d = parse_declarations("height: ; top: 2px; left: 1px)");
        assert_eq!(serialize_declarations(&d), "top: 2px;");
        let d = parse_declarations("a: 1 ! importan; b: url(x.png)");
        assert_eq!(serialize_declarations(&d), "b: url(x.png);");
    }
}

//! The DOM's node mixins, `ParentNode`
//! (<https://dom.spec.whatwg.org/#interface-parentnode>) and `ChildNode` with
//! `NonDocumentTypeChildNode`
//! (<https://dom.spec.whatwg.org/#interface-childnode>), written once: each
//! macro expands the mixin's members inside an interface's `…Methods` impl,
//! whose type has a `node: Node` field the members act on.

/// The members of the `ParentNode` mixin that act on `self.node` (for
/// `Document`, `DocumentFragment` and `Element`).
#[macro_export]
macro_rules! parent_node_methods {
    () => {
        /// <https://dom.spec.whatwg.org/#dom-parentnode-queryselector>: return
        /// the first result of running scope-match a selectors string
        /// selectors against this, if the result is not an empty list; null
        /// otherwise.
        fn QuerySelector(
            &self,
            _cx: &mut mozjs::context::JSContext,
            selectors: $crate::dom::bindings::conversions::DOMString,
        ) -> $crate::dom::bindings::error::Fallible<
            Option<$crate::dom::bindings::root::DomRoot<$crate::dom::nodes::element::Element>>,
        > {
            Ok(
                $crate::dom::nodes::element::Element::query_selector_all(&self.node, &selectors)?
                    .into_iter()
                    .next(),
            )
        }

        /// <https://dom.spec.whatwg.org/#dom-parentnode-queryselectorall>
        fn QuerySelectorAll(
            &self,
            cx: &mut mozjs::context::JSContext,
            selectors: $crate::dom::bindings::conversions::DOMString,
        ) -> $crate::dom::bindings::error::Fallible<
            $crate::dom::bindings::root::DomRoot<$crate::dom::nodes::nodelist::NodeList>,
        > {
            $crate::dom::nodes::element::Element::query_selector_all_list(cx, &self.node, &selectors)
        }

        /// <https://dom.spec.whatwg.org/#dom-parentnode-firstelementchild>
        fn FirstElementChild(
            &self,
            _cx: &mut mozjs::context::JSContext,
        ) -> Option<$crate::dom::bindings::root::DomRoot<$crate::dom::nodes::element::Element>> {
            self.node.first_element_child()
        }

        /// <https://dom.spec.whatwg.org/#dom-parentnode-lastelementchild>
        fn LastElementChild(
            &self,
            _cx: &mut mozjs::context::JSContext,
        ) -> Option<$crate::dom::bindings::root::DomRoot<$crate::dom::nodes::element::Element>> {
            self.node.last_element_child()
        }

        /// <https://dom.spec.whatwg.org/#dom-parentnode-childelementcount>
        fn ChildElementCount(&self, _cx: &mut mozjs::context::JSContext) -> u32 {
            self.node.child_element_count()
        }

        /// <https://dom.spec.whatwg.org/#dom-parentnode-children>
        fn Children(
            &self,
            cx: &mut mozjs::context::JSContext,
        ) -> $crate::dom::bindings::root::DomRoot<$crate::dom::nodes::htmlcollection::HTMLCollection> {
            self.node.children_collection(cx)
        }

        /// <https://dom.spec.whatwg.org/#dom-parentnode-prepend>
        fn Prepend(
            &self,
            cx: &mut mozjs::context::JSContext,
            nodes: Vec<$crate::dom::bindings::codegen::NodeOrString>,
        ) -> $crate::dom::bindings::error::Fallible<()> {
            self.node.prepend_nodes(cx, nodes)
        }

        /// <https://dom.spec.whatwg.org/#dom-parentnode-append>
        fn Append(
            &self,
            cx: &mut mozjs::context::JSContext,
            nodes: Vec<$crate::dom::bindings::codegen::NodeOrString>,
        ) -> $crate::dom::bindings::error::Fallible<()> {
            self.node.append_nodes(cx, nodes)
        }

        /// <https://dom.spec.whatwg.org/#dom-parentnode-replacechildren>
        fn ReplaceChildren(
            &self,
            cx: &mut mozjs::context::JSContext,
            nodes: Vec<$crate::dom::bindings::codegen::NodeOrString>,
        ) -> $crate::dom::bindings::error::Fallible<()> {
            self.node.replace_children_nodes(cx, nodes)
        }
    };
}

/// The members of the `ChildNode` and `NonDocumentTypeChildNode` mixins
/// that act on `self.node` (for `CharacterData` and `Element`).
#[macro_export]
macro_rules! child_node_methods {
    () => {
        /// <https://dom.spec.whatwg.org/#dom-childnode-remove>
        fn Remove(
            &self,
            cx: &mut mozjs::context::JSContext,
        ) -> $crate::dom::bindings::error::Fallible<()> {
            // Step 1: If this's parent is null, then return.
            // Step 2: Remove this.
            if let Some(parent) = self.node.parent() {
                parent.remove(&self.node);
                $crate::dom::nodes::virtualmethods::run_post_connection_steps(cx);
            }
            Ok(())
        }

        /// <https://dom.spec.whatwg.org/#dom-childnode-before>
        fn Before(
            &self,
            cx: &mut mozjs::context::JSContext,
            nodes: Vec<$crate::dom::bindings::codegen::NodeOrString>,
        ) -> $crate::dom::bindings::error::Fallible<()> {
            self.node.before_nodes(cx, nodes)
        }

        /// <https://dom.spec.whatwg.org/#dom-childnode-after>
        fn After(
            &self,
            cx: &mut mozjs::context::JSContext,
            nodes: Vec<$crate::dom::bindings::codegen::NodeOrString>,
        ) -> $crate::dom::bindings::error::Fallible<()> {
            self.node.after_nodes(cx, nodes)
        }

        /// <https://dom.spec.whatwg.org/#dom-childnode-replacewith>
        fn ReplaceWith(
            &self,
            cx: &mut mozjs::context::JSContext,
            nodes: Vec<$crate::dom::bindings::codegen::NodeOrString>,
        ) -> $crate::dom::bindings::error::Fallible<()> {
            self.node.replace_with_nodes(cx, nodes)
        }

        /// <https://dom.spec.whatwg.org/#dom-nondocumenttypechildnode-previouselementsibling>
        fn PreviousElementSibling(
            &self,
            _cx: &mut mozjs::context::JSContext,
        ) -> Option<$crate::dom::bindings::root::DomRoot<$crate::dom::nodes::element::Element>> {
            self.node.previous_element_sibling()
        }

        /// <https://dom.spec.whatwg.org/#dom-nondocumenttypechildnode-nextelementsibling>
        fn NextElementSibling(
            &self,
            _cx: &mut mozjs::context::JSContext,
        ) -> Option<$crate::dom::bindings::root::DomRoot<$crate::dom::nodes::element::Element>> {
            self.node.next_element_sibling()
        }
    };
}

/// The member of the `NonElementParentNode` mixin
/// (<https://dom.spec.whatwg.org/#interface-nonelementparentnode>), for
/// `Document` and `DocumentFragment`.
#[macro_export]
macro_rules! non_element_parent_node_methods {
    () => {
        /// <https://dom.spec.whatwg.org/#dom-nonelementparentnode-getelementbyid>:
        /// the first element, in tree order, within this's descendants, whose
        /// ID is elementId; otherwise, null.
        fn GetElementById(
            &self,
            _cx: &mut mozjs::context::JSContext,
            element_id: $crate::dom::bindings::conversions::DOMString,
        ) -> $crate::dom::bindings::error::Fallible<
            Option<$crate::dom::bindings::root::DomRoot<$crate::dom::nodes::element::Element>>,
        > {
            Ok(self
                .node
                .element_descendants()
                .into_iter()
                .find(|e| e.get_attribute("id").as_deref() == Some(element_id.as_str())))
        }
    };
}

/// `getElementsByTagName()` and `getElementsByClassName()`, which
/// `Document` and `Element` define alike with this as the root (the
/// links are each interface's own): "return the list of elements with
/// qualified name qualifiedName for this", "return the list of elements
/// with class names classNames for this".
#[macro_export]
macro_rules! elements_by_name_methods {
    ($tag_name_link:literal, $class_name_link:literal) => {
        $crate::collection_method!(
            $tag_name_link,
            GetElementsByTagName(qualified_name),
            $crate::dom::nodes::htmlcollection::CollectionFilter::TagName(qualified_name)
        );
        $crate::collection_method!(
            $class_name_link,
            GetElementsByClassName(class_names),
            $crate::dom::nodes::htmlcollection::class_names_filter(&class_names)
        );
    };
}

/// An operation `$method($arg: DOMString)` that returns a new
/// `HTMLCollection` rooted at `self.node` with the filter `$filter`.
#[macro_export]
#[doc(hidden)]
macro_rules! collection_method {
    ($link:literal, $method:ident($arg:ident), $filter:expr) => {
        #[doc = $link]
        fn $method(
            &self,
            cx: &mut mozjs::context::JSContext,
            $arg: $crate::dom::bindings::conversions::DOMString,
        ) -> $crate::dom::bindings::error::Fallible<
            $crate::dom::bindings::root::DomRoot<
                $crate::dom::nodes::htmlcollection::HTMLCollection,
            >,
        > {
            Ok($crate::dom::nodes::htmlcollection::HTMLCollection::new(
                cx, &self.node, $filter,
            ))
        }
    };
}

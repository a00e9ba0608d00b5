//! `HTMLCollection` (<https://dom.spec.whatwg.org/#interface-htmlcollection>):
//! a live collection of elements, filtered from a root's descendants (or
//! children) each time it is read: `children`, `getElementsByTagName`,
//! `getElementsByClassName`.

use std::cell::RefCell;

use jsprof_script_derive::JSTraceable;
use mozjs::context::JSContext;

use crate::dom::bindings::codegen::HTMLCollectionBinding::HTMLCollectionMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::{Dom, DomRoot};
use crate::dom::nodes::element::{Element, HTML_NAMESPACE};
use crate::dom::nodes::node::Node;

/// <https://dom.spec.whatwg.org/#concept-getelementsbyclassname> step 1:
/// let classes be the result of running the ordered set parser on
/// classNames.
pub fn class_names_filter(class_names: &str) -> CollectionFilter {
    let mut classes: Vec<String> = Vec::new();
    for class in class_names.split_ascii_whitespace() {
        if !classes.iter().any(|c| c == class) {
            classes.push(class.to_owned());
        }
    }
    CollectionFilter::ClassNames(classes)
}

/// Which elements of the root a collection holds.
pub enum CollectionFilter {
    /// <https://dom.spec.whatwg.org/#dom-parentnode-children>: the element
    /// children.
    Children,
    /// <https://dom.spec.whatwg.org/#concept-getelementsbytagname>
    TagName(String),
    /// <https://dom.spec.whatwg.org/#concept-getelementsbyclassname>: the
    /// class names (the ordered set parsed from the argument).
    ClassNames(Vec<String>),
}

#[derive(JSTraceable)]
pub struct HTMLCollection {
    pub(crate) reflector: Reflector,
    /// <https://dom.spec.whatwg.org/#concept-collection-root>
    root: Dom<Node>,
    #[no_trace]
    filter: CollectionFilter,
    /// The elements as of a tree version (`node::tree_version`), so that
    /// reading `length` and each index in a loop walks the tree once.
    cache: RefCell<Option<(u64, Vec<Dom<Element>>)>>,
    /// The supported property names as of a tree version (the named
    /// property checks of every property access read them).
    names_cache: RefCell<Option<(u64, Vec<String>)>>,
}

impl HTMLCollection {
    pub fn new(
        cx: &mut JSContext,
        root: &Node,
        filter: CollectionFilter,
    ) -> DomRoot<HTMLCollection> {
        reflect_dom_object(
            cx,
            root.global(),
            Box::new(HTMLCollection {
                reflector: Reflector::new(),
                root: Dom::from_ref(root),
                filter,
                cache: RefCell::new(None),
                names_cache: RefCell::new(None),
            }),
            None,
        )
    }

    /// Calls `f` with the elements represented by the collection now, in
    /// tree order (from the cache while no tree or attribute changed).
    fn with_elements<R>(&self, f: impl FnOnce(&[Dom<Element>]) -> R) -> R {
        let version = crate::dom::nodes::node::tree_version();
        let fresh = matches!(self.cache.borrow().as_ref(), Some((cached, _)) if *cached == version);
        if !fresh {
            let elements = self.compute_elements();
            *self.cache.borrow_mut() = Some((
                version,
                elements.iter().map(|e| Dom::from_ref(&**e)).collect(),
            ));
        }
        let cache = self.cache.borrow();
        f(cache
            .as_ref()
            .map_or(&[][..], |(_, elements)| &elements[..]))
    }

    /// The elements represented by the collection now, in tree order.
    pub fn elements(&self) -> Vec<DomRoot<Element>> {
        self.with_elements(|elements| elements.iter().map(Dom::root).collect())
    }

    /// The element at `index`, if any.
    fn element_at(&self, index: u32) -> Option<DomRoot<Element>> {
        self.with_elements(|elements| elements.get(index as usize).map(Dom::root))
    }

    /// The number of elements.
    fn len(&self) -> u32 {
        self.with_elements(|elements| elements.len() as u32)
    }

    /// The elements the filter matches, walking the tree.
    fn compute_elements(&self) -> Vec<DomRoot<Element>> {
        let root = self.root.root();
        match &self.filter {
            CollectionFilter::Children => root
                .children()
                .iter()
                .filter_map(|c| c.downcast::<Element>())
                .collect(),
            CollectionFilter::TagName(name) => Element::elements_by_tag_name(&root, name),
            CollectionFilter::ClassNames(classes) => {
                // Step 2: If classes is the empty set, return an empty
                // HTMLCollection.
                if classes.is_empty() {
                    return Vec::new();
                }
                // Step 3: an HTMLCollection rooted at root, whose filter
                // matches descendant elements that have all their classes
                // in classes (quirks mode compares ASCII case-insensitively).
                let quirks = root.owner_doc().is_some_and(|d| d.is_quirks());
                root.element_descendants()
                    .into_iter()
                    .filter(|e| {
                        let class = e.get_attribute("class").unwrap_or_default();
                        let own: Vec<&str> = class.split_ascii_whitespace().collect();
                        classes.iter().all(|c| {
                            own.iter().any(|o| {
                                if quirks {
                                    o.eq_ignore_ascii_case(c)
                                } else {
                                    o == c
                                }
                            })
                        })
                    })
                    .collect()
            }
        }
    }

    /// <https://dom.spec.whatwg.org/#dom-htmlcollection-nameditem-key>
    fn named_item(&self, key: &str) -> Option<DomRoot<Element>> {
        // Step 1: If key is the empty string, return null.
        if key.is_empty() {
            return None;
        }
        // Step 2: Return the first element in the collection for which at
        // least one of the following is true: it has an ID which is key;
        // it is in the HTML namespace and has a name attribute whose value
        // is key; or null if there is no such element.
        self.elements().into_iter().find(|e| {
            e.get_attribute("id").as_deref() == Some(key)
                || (e.namespace() == Some(HTML_NAMESPACE)
                    && e.get_attribute("name").as_deref() == Some(key))
        })
    }
}

impl HTMLCollectionMethods for HTMLCollection {
    /// <https://dom.spec.whatwg.org/#dom-htmlcollection-length>: the number
    /// of elements represented by the collection.
    fn Length(&self, _cx: &mut JSContext) -> u32 {
        self.len()
    }

    /// <https://dom.spec.whatwg.org/#dom-htmlcollection-item>: the indexth
    /// element in the collection, or null.
    fn Item(&self, _cx: &mut JSContext, index: u32) -> Fallible<Option<DomRoot<Element>>> {
        Ok(self.element_at(index))
    }

    /// <https://dom.spec.whatwg.org/#dom-htmlcollection-nameditem>
    fn NamedItem(
        &self,
        _cx: &mut JSContext,
        name: DOMString,
    ) -> Fallible<Option<DomRoot<Element>>> {
        Ok(self.named_item(&name))
    }

    fn IndexedGetter(&self, _cx: &mut JSContext, index: u32) -> Option<DomRoot<Element>> {
        self.element_at(index)
    }

    /// The supported property indices: 0 up to the number of elements.
    fn SupportedIndexCount(&self, _cx: &mut JSContext) -> u32 {
        self.len()
    }

    fn NamedGetter(&self, _cx: &mut JSContext, name: DOMString) -> Option<DomRoot<Element>> {
        self.named_item(&name)
    }

    /// <https://dom.spec.whatwg.org/#ref-for-dfn-supported-property-names>:
    /// for each element in the collection, in tree order: its ID if
    /// non-empty and not yet in the list; if it is in the HTML namespace,
    /// its non-empty name attribute value if not yet in the list.
    fn SupportedPropertyNames(&self, _cx: &mut JSContext) -> Vec<DOMString> {
        let version = crate::dom::nodes::node::tree_version();
        if let Some((cached, names)) = self.names_cache.borrow().as_ref() {
            if *cached == version {
                return names.clone();
            }
        }
        let names = self.compute_names();
        *self.names_cache.borrow_mut() = Some((version, names.clone()));
        names
    }
}

impl HTMLCollection {
    /// The supported property names, walking the elements.
    fn compute_names(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
        for element in self.elements() {
            let id = element.get_attribute("id").filter(|i| !i.is_empty());
            let name = (element.namespace() == Some(HTML_NAMESPACE))
                .then(|| element.get_attribute("name"))
                .flatten()
                .filter(|n| !n.is_empty());
            for candidate in [id, name].into_iter().flatten() {
                if seen.insert(candidate.clone()) {
                    names.push(candidate);
                }
            }
        }
        names
    }
}

//! `HTMLCollection` (<https://dom.spec.whatwg.org/#interface-htmlcollection>):
//! a live collection of elements, filtered from a root's descendants (or
//! children) each time it is read: `children`, `getElementsByTagName`,
//! `getElementsByClassName`.

use mozjs::context::JSContext;
use mozjs::gc::Traceable;
use mozjs::jsapi::JSTracer;

use crate::dom::bindings::codegen::HTMLCollectionBinding::HTMLCollectionMethods;
use crate::dom::bindings::conversions::DOMString;
use crate::dom::bindings::error::Fallible;
use crate::dom::bindings::reflector::{reflect_dom_object, Reflector};
use crate::dom::bindings::root::{Dom, DomRoot};
use crate::dom::element::{Element, HTML_NAMESPACE};
use crate::dom::node::Node;

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

pub struct HTMLCollection {
    pub(crate) reflector: Reflector,
    /// <https://dom.spec.whatwg.org/#concept-collection-root>
    root: Dom<Node>,
    filter: CollectionFilter,
}

unsafe impl Traceable for HTMLCollection {
    unsafe fn trace(&self, trc: *mut JSTracer) {
        unsafe {
            self.reflector.trace(trc);
            self.root.trace(trc);
        }
    }
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
            }),
            None,
        )
    }

    /// The elements represented by the collection now, in tree order.
    pub fn elements(&self) -> Vec<DomRoot<Element>> {
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
        self.elements().len() as u32
    }

    /// <https://dom.spec.whatwg.org/#dom-htmlcollection-item>: the indexth
    /// element in the collection, or null.
    fn Item(&self, _cx: &mut JSContext, index: u32) -> Fallible<Option<DomRoot<Element>>> {
        Ok(self.elements().into_iter().nth(index as usize))
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
        self.elements().into_iter().nth(index as usize)
    }

    /// The supported property indices: 0 up to the number of elements.
    fn SupportedIndexCount(&self, _cx: &mut JSContext) -> u32 {
        self.elements().len() as u32
    }

    fn NamedGetter(&self, _cx: &mut JSContext, name: DOMString) -> Option<DomRoot<Element>> {
        self.named_item(&name)
    }

    /// <https://dom.spec.whatwg.org/#ref-for-dfn-supported-property-names>:
    /// for each element in the collection, in tree order: its ID if
    /// non-empty and not yet in the list; if it is in the HTML namespace,
    /// its non-empty name attribute value if not yet in the list.
    fn SupportedPropertyNames(&self, _cx: &mut JSContext) -> Vec<DOMString> {
        let mut names: Vec<String> = Vec::new();
        for element in self.elements() {
            if let Some(id) = element.get_attribute("id").filter(|i| !i.is_empty()) {
                if !names.contains(&id) {
                    names.push(id);
                }
            }
            if element.namespace() == Some(HTML_NAMESPACE) {
                if let Some(name) = element.get_attribute("name").filter(|n| !n.is_empty()) {
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
            }
        }
        names
    }
}

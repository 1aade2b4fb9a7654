//! The page's elements found in the browser, for the code that works on HTML the server wrote
//! (ages, Tell boxes, the history's cards). Browser only.

use leptos::wasm_bindgen::JsCast;

/// The elements under `root` that match `selector`, in document order.
pub fn all(root: &web_sys::Element, selector: &str) -> Vec<web_sys::Element> {
    let Ok(found) = root.query_selector_all(selector) else {
        return Vec::new();
    };
    (0..found.length())
        .filter_map(|index| found.item(index)?.dyn_into().ok())
        .collect()
}

/// The elements `html` is made of, outside the page (in a detached list).
pub fn parsed(html: &str) -> Vec<web_sys::Element> {
    let Ok(holder) = leptos::prelude::document().create_element("ul") else {
        return Vec::new();
    };
    holder.set_inner_html(html);
    children(&holder)
}

/// The element children of `parent`.
pub fn children(parent: &web_sys::Element) -> Vec<web_sys::Element> {
    let children = parent.children();
    (0..children.length())
        .filter_map(|index| children.item(index))
        .collect()
}

//! The JSON a page carries for its code in data blocks (`<script type="application/json">`):
//! the catalogues (`catalogue_block`), and an island's data (`DataBlock`, read by
//! `crate::carried`).

use crate::carried::Carried;
use leptos::prelude::*;
use serde::Serialize;

/// Writes `value` into the data block `id`, and renders `children` (an island that reads it
/// with `crate::carried::carried(id)`) with the value in context.
#[component]
pub fn DataBlock<T>(id: &'static str, value: T, children: Children) -> impl IntoView
where
    T: Serialize + Clone + Send + Sync + 'static,
{
    let json = script_json(&value);
    view! {
        <script type="application/json" id=id inner_html=json></script>
        <leptos::context::Provider value=Carried {
            id,
            value,
        }>{children()}</leptos::context::Provider>
    }
}

/// `value` as JSON that cannot end a `<script>` element or open a comment in it.
pub fn script_json(value: &impl Serialize) -> String {
    // `<` occurs only inside strings in JSON, where `\u003c` means the same.
    serde_json::to_string(value)
        .unwrap_or_default()
        .replace('<', "\\u003c")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_block_cannot_end_its_element() {
        let text = "</script><script>alert(1)</script><!--";
        let json = script_json(&text);
        assert!(!json.contains('<'), "{json}");
        assert_eq!(serde_json::from_str::<String>(&json).unwrap(), text);
    }
}
